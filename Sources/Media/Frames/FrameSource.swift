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
    /// Whether frames arrive in real time by themselves (a camera), so the capture loop never
    /// paces them; the stand-in camera and files are paced with `--pace realtime`.
    var isLive: Bool { get }
}

extension FrameSource {
    public var isLive: Bool { false }
}

/// A source whose blocking reads a stop can cut short: a file or FIFO waiting for its writer.
public protocol InterruptibleSource: FrameSource {
    /// Set from any thread to end a wait inside `start()` or `nextFrame()` at once; `nextFrame()`
    /// then returns nil (the end of the source) and `start()` throws.
    var interrupt: InterruptFlag { get }
}

/// A source that can hand over its frames still compressed — an MJPEG camera — so a `copy` preset
/// stores them as they come, at almost no CPU.
public protocol CompressedFrameSource: FrameSource {
    /// The compressed stream's parameters (codec, size), known after `start()`.
    var compressedParameters: CodecParameters? { get }
    /// The next frame as a packet timed on the session timeline; nil at the end. Use instead of
    /// `nextFrame()`, not with it.
    func nextPacket() throws(RecError) -> EncodedPacket?
}

/// A source whose device can go away and come back (a USB camera unplugged and plugged in again).
public protocol ReconnectingSource: FrameSource {
    /// Whether an error from `nextFrame()`/`nextPacket()` means the device went away.
    func isDisconnect(_ error: RecError) -> Bool
    /// What happened, for status while waiting: "was unplugged", "stopped delivering frames".
    func disconnectText(_ error: RecError) -> String
    /// Waits up to `seconds` for the same device to return and resumes streaming on the same
    /// timeline; throws if it does not come back.
    func reconnect(waitingUpTo seconds: Double) throws(RecError)
    /// The same, returning early (with the device closed) once `stop` is released: a stop while
    /// waiting ends the wait at once.
    func reconnect(waitingUpTo seconds: Double, stop: Latch) throws(RecError)
}

extension ReconnectingSource {
    public func disconnectText(_ error: RecError) -> String { "was unplugged" }

    public func reconnect(waitingUpTo seconds: Double, stop: Latch) throws(RecError) {
        try reconnect(waitingUpTo: seconds)
    }
}

/// A source that knows when session time 0 was on CLOCK_MONOTONIC: a camera whose driver stamps
/// its buffers on that clock. The sound is put on the same timeline from it.
public protocol ClockedSource: FrameSource {
    /// CLOCK_MONOTONIC nanoseconds of the first frame's timestamp; nil before it.
    var monotonicEpoch: UInt64? { get }
}
