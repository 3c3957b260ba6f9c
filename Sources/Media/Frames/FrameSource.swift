import RecCore

/// Where frames come from: the stand-in camera, a file, a V4L2 camera.
///
/// A source is driven by one thread, the capture thread, which calls `start()`, then `nextFrame()`
/// until it returns nil or throws, then `stop()`. Frames carry their capture time on the session
/// timeline (0 = first frame). Pacing is not the source's job: a camera is paced by its sensor, and
/// the capture loop holds the stand-in camera and files to their timestamps when `--pace realtime`.
///
/// What a source can do beyond frames is its `capabilities`, asked of the protocol, never learnt by
/// casting the source to a narrower type: a source that wraps another (a filter, a test double)
/// forwards its inner source's capabilities in one line and keeps the camera's clock, its reconnect
/// and its controls.
package protocol FrameSource: AnyObject {
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
    /// What the source is and can do beyond delivering frames. No default: every source says, and
    /// a wrapper forwards `inner.capabilities`, so none is lost by wrapping.
    var capabilities: SourceCapabilities { get }
}

/// What a frame source is and can do beyond `nextFrame()`; nil where it cannot. Each capability
/// is an object the source hands out (usually itself), read on the capture thread like the source.
package struct SourceCapabilities {
    /// Whether frames arrive in real time by themselves (a camera), so the capture loop never
    /// paces them; the stand-in camera and files are paced with `--pace realtime`.
    package var isLive: Bool
    /// A flag any thread may set to end a wait inside `start()` or `nextFrame()` at once (a file or
    /// FIFO waiting for its writer); `nextFrame()` then returns nil (the end of the source) and
    /// `start()` throws.
    package var interrupt: InterruptFlag?
    /// The source's own clock: a camera whose driver stamps its buffers on CLOCK_MONOTONIC. The
    /// sound is put on the pictures' timeline from it.
    package var clock: (any SourceClock)?
    /// Frames handed over still compressed (an MJPEG camera), so a `copy` preset stores them as
    /// they come, at almost no CPU.
    package var compressed: (any CompressedFrames)?
    /// A device that can go away and come back (a USB camera unplugged and plugged in again).
    package var reconnection: (any Reconnection)?
    /// Camera controls (brightness, exposure …), set on the capture thread between frames.
    package var controls: (any ControllableSource)?
    /// Whether capture may wait for the encoder without losing anything (a regular file: it is
    /// read at rec's pace, as `ffmpeg -re` reads it). The recorder's queue then blocks instead of
    /// dropping late frames, and stays two frames deep: every decoded frame queued pins a buffer
    /// of the decoder's pool until the decoder closes, so a lag behind a 16-frame queue held ~31 MB
    /// at 1080p for the rest of a session (bench/README.md, core.sh).
    package var waitsWithoutLoss: Bool
    /// Sound the source brings itself, already encoded (a network camera's AAC): recorded as the
    /// first sound streams, before any `--audio` input.
    package var sound: (any SourceSound)?
    /// Whether pictures come unevenly (a screen: its changes, then one a second while nothing
    /// changes), so keyframes are placed by time (`KeyframeSchedule`), not by counting pictures.
    package var keyframesByTime: Bool

    package init(isLive: Bool = false, interrupt: InterruptFlag? = nil, clock: (any SourceClock)? = nil,
                compressed: (any CompressedFrames)? = nil, reconnection: (any Reconnection)? = nil,
                controls: (any ControllableSource)? = nil, waitsWithoutLoss: Bool = false,
                sound: (any SourceSound)? = nil, keyframesByTime: Bool = false) {
        self.isLive = isLive
        self.keyframesByTime = keyframesByTime
        self.sound = sound
        self.waitsWithoutLoss = waitsWithoutLoss
        self.interrupt = interrupt
        self.clock = clock
        self.compressed = compressed
        self.reconnection = reconnection
        self.controls = controls
    }
}

/// A source's own clock: when session time 0 was on CLOCK_MONOTONIC.
package protocol SourceClock: AnyObject {
    /// CLOCK_MONOTONIC nanoseconds of the first frame's timestamp; nil before it.
    var monotonicEpoch: UInt64? { get }
    /// The wall-clock time of session time 0 as the source's own clock tells it (a network
    /// camera's RTCP sender reports), in microseconds since the Unix epoch; nil while it has not
    /// (the session then takes the first frame's arrival).
    var wallClockAtZero: Timestamp? { get }
}

extension SourceClock {
    package var wallClockAtZero: Timestamp? { nil }
}

/// Sound packets a source reads beside its pictures (a network camera's own sound), timed on the
/// session timeline like its frames. Read on the capture thread after each frame or packet.
package protocol SourceSound: AnyObject {
    /// The sound streams' parameters, in stream order (`.sound(0)` first), known after `start()`.
    var soundParameters: [CodecParameters] { get }
    /// Swaps the sound packets read since the last call (in time order, each naming its stream)
    /// into `packets`, which the caller hands back empty: the two arrays take turns, so neither
    /// is allocated again for every picture.
    func takeSound(into packets: inout [EncodedPacket])
}

/// Frames as the device compressed them, read instead of `FrameSource.nextFrame()`, not with it.
package protocol CompressedFrames: AnyObject {
    /// The compressed stream's parameters (codec, size), known after `start()`; nil when the mode
    /// the source runs in is not compressed.
    var compressedParameters: CodecParameters? { get }
    /// The next frame as a packet timed on the session timeline; nil at the end.
    func nextPacket() throws(RecError) -> EncodedPacket?
    /// Whether packets already let out wait to be taken, which `nextPacket()` returns without
    /// reading on: a B-frame camera's pictures leave its reorder gate as a run (a picture and the
    /// B-frames presented before it). The recorder takes them before it stops, so a stop between
    /// two calls never ends a recording on half a run.
    var holdsReleasedPackets: Bool { get }
}

extension CompressedFrames {
    package var holdsReleasedPackets: Bool { false }
}

/// Waiting for a device that went away to return (`--on-unplug wait`).
package protocol Reconnection: AnyObject {
    /// Whether an error from `nextFrame()`/`nextPacket()` means the device went away.
    func isDisconnect(_ error: RecError) -> Bool
    /// What happened, for status while waiting: "was unplugged", "stopped delivering frames".
    func disconnectText(_ error: RecError) -> String
    /// Waits up to `seconds` for the same device to return and resumes streaming on the same
    /// timeline, returning early (with the device closed) once `stop` is released: a stop while
    /// waiting ends the wait at once. Throws if the device does not come back.
    func reconnect(waitingUpTo seconds: Double, stop: Latch) throws(RecError)
}
