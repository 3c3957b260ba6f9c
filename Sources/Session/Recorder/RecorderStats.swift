import Foundation
import RecCore

/// What a recording has done so far: the honest telemetry `rec status` and `rec record` show.
package struct RecorderStats: Sendable {
    package enum State: String, Sendable {
        case starting, recording, stopping, finished, failed
    }

    package var state: State = .starting
    package var source = ""
    /// The mode the source actually runs in, e.g. "1280x720 yuv420p @ 30 fps".
    package var mode = ""
    /// Wall-clock time of the first frame (session time 0).
    package var startedAt: Date?
    package var framesCaptured = 0
    package var framesEncoded = 0
    /// Frames dropped because the encoder fell behind.
    package var droppedLate = 0
    /// Frames the source lost (driver sequence gaps, error-flagged buffers).
    package var droppedBySource = 0
    /// Capture time of the newest frame, on the session timeline.
    package var lastCaptureTime: Timestamp = .zero
    /// Encoded bytes produced and packets.
    package var encodedBytes: Int64 = 0
    package var packets = 0
    package var keyframes = 0
    /// Frames waiting for the encoder right now.
    package var encoderLag = 0
    package var outputPath: String?
    package var outputBytes: Int64 = 0
    package var lastError: String?
    /// The error that ended the recording, whole (`lastError` is its text, or a problem met on
    /// the way that did not end it).
    package var failure: RecError?
    /// Why the file ended early, when writing it failed; the session may still be recording into
    /// its ring.
    package var fileError: String?
    /// Session time before which the recording file holds every frame on disk.
    package var fileCompleteBefore: Timestamp?
    /// `fileError` whole.
    package var fileFailure: RecError?
    /// Times the source went away and came back (`--on-unplug wait`): gaps in the recording.
    package var gaps = 0
    /// What the camera did before the last gap: "was unplugged", "stopped delivering frames (a stall)".
    package var lastGap: String?
    /// Where wall-clock times come from when not from the first frame's arrival: "camera" once a
    /// network camera's RTCP sender reports set `startedAt`; nil for arrival.
    package var wallClockSource: String?
    /// Each sound input's telemetry, in stream order (empty without sound).
    package var sounds: [SoundStats] = []
    /// The first sound's telemetry, when the recording has sound.
    package var sound: SoundStats? { sounds.first }

    /// Frames per second actually captured, over the session so far.
    package var realFrameRate: Double {
        let seconds = lastCaptureTime.seconds
        return framesCaptured > 1 && seconds > 0 ? Double(framesCaptured - 1) / seconds : 0
    }

    /// Mean encoded bitrate in bits per second.
    package var bitrate: Double {
        let seconds = lastCaptureTime.seconds
        return seconds > 0 ? Double(encodedBytes) * 8 / seconds : 0
    }
}
