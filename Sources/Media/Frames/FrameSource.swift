import RecCore

/// Where frames come from: the stand-in camera, a file, a V4L2 camera.
///
/// A source is driven by one thread, the capture thread, which calls `start()`, then `nextFrame()`
/// until it returns nil or throws, then `stop()`. Frames carry their capture time on the session
/// timeline (0 = first frame). Pacing is not the source's job: a camera is paced by its sensor, and
/// the capture loop holds the stand-in camera and files to their timestamps when `--pace realtime`.
public protocol FrameSource: AnyObject {
    /// What the source delivers, known after `start()`.
    var format: VideoFormat { get }
    /// The nominal frame rate (frames per second), if the source has one.
    var nominalFrameRate: Rational? { get }
    /// A one-line description for status output: "test pattern 1280x720@30", "/dev/video0 (C920) …".
    var description: String { get }
    /// Opens the device or file and starts streaming.
    func start() throws(RecError)
    /// Blocks until the next frame; nil at the end of the source (end of file, `--frames` reached).
    func nextFrame() throws(RecError) -> VideoFrame?
    /// Frames the source itself lost (a driver's sequence gaps, error-flagged buffers).
    var droppedFrames: Int { get }
    /// Stops streaming and releases the device or file; safe to call more than once.
    func stop()
}
