import Foundation
import RecCore

/// What a recording has done so far: the honest telemetry `rec status` and `rec record` show.
public struct RecorderStats: Sendable {
    public enum State: String, Sendable {
        case starting, recording, stopping, finished, failed
    }

    public var state: State = .starting
    public var source = ""
    /// The mode the source actually runs in, e.g. "1280x720 yuv420p @ 30 fps".
    public var mode = ""
    /// Wall-clock time of the first frame (session time 0).
    public var startedAt: Date?
    public var framesCaptured = 0
    public var framesEncoded = 0
    /// Frames dropped because the encoder fell behind.
    public var droppedLate = 0
    /// Frames the source lost (driver sequence gaps, error-flagged buffers).
    public var droppedBySource = 0
    /// Capture time of the newest frame, on the session timeline.
    public var lastCaptureTime: Timestamp = .zero
    /// Encoded bytes produced and packets.
    public var encodedBytes: Int64 = 0
    public var packets = 0
    public var keyframes = 0
    /// Frames waiting for the encoder right now.
    public var encoderLag = 0
    public var outputPath: String?
    public var outputBytes: Int64 = 0
    public var lastError: String?
    /// Why the file ended early, when writing it failed; the session may still be recording into
    /// its ring.
    public var fileError: String?
    /// Times the source went away and came back (`--on-unplug wait`): gaps in the recording.
    public var gaps = 0
    /// What the camera did before the last gap: "was unplugged", "stopped delivering frames (a stall)".
    public var lastGap: String?
    /// Where wall-clock times come from when not from the first frame's arrival: "camera" once a
    /// network camera's RTCP sender reports set `startedAt`; nil for arrival.
    public var wallClockSource: String?
    /// Each sound input's telemetry, in stream order (empty without sound).
    public var sounds: [SoundStats] = []
    /// The first sound's telemetry, when the recording has sound.
    public var sound: SoundStats? { sounds.first }

    /// Frames per second actually captured, over the session so far.
    public var realFrameRate: Double {
        let seconds = lastCaptureTime.seconds
        return framesCaptured > 1 && seconds > 0 ? Double(framesCaptured - 1) / seconds : 0
    }

    /// Mean encoded bitrate in bits per second.
    public var bitrate: Double {
        let seconds = lastCaptureTime.seconds
        return seconds > 0 ? Double(encodedBytes) * 8 / seconds : 0
    }
}
