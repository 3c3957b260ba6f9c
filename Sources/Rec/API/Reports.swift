import Foundation
import RecCore
import Session
import SessionControl

/// What a save wrote: the report `rec save` prints.
public struct SaveReport: Sendable, CustomStringConvertible {
    let body: RecCore.SaveReport

    init(_ body: RecCore.SaveReport) { self.body = body }

    /// The clip.
    public var url: URL { URL(fileURLWithPath: body.path) }
    /// Frames in the clip.
    public var frames: Int { body.frames ?? 0 }
    /// The range asked for, on the session's clock.
    public var requested: Range<Duration>? {
        body.exactRequested.map { $0.lowerBound.duration..<$0.upperBound.duration }
            ?? body.requested.map { .seconds($0.from)..<(.seconds($0.to)) }
    }
    /// The range the clip's frames cover, on the session's clock: from the first frame's
    /// ``Frame/time`` to the time of the frame after the last (its end). Whole frame times:
    /// a save from one frame's time to another's reports exactly those two times.
    public var saved: Range<Duration>? {
        body.exactSaved.map { $0.lowerBound.duration..<$0.upperBound.duration }
            ?? body.saved.map { .seconds($0.from)..<(.seconds($0.to)) }
    }
    /// The clip's size in bytes.
    public var bytes: Int { body.bytes ?? 0 }
    /// Frames re-encoded so the clip starts exactly where asked (the rest are copied).
    public var reencodedFrames: Int { body.reencoded ?? 0 }
    /// Frames the session dropped inside the range (a slow encoder, a camera's own losses).
    public var droppedFrames: Int { body.droppedInRange ?? 0 }
    /// Whether the clip came from the replay buffer (else from the session's recording file).
    public var fromReplayBuffer: Bool { body.source == .ring }
    /// Why the clip starts after ``requested`` does; nil when it starts where asked. A save of
    /// the last seconds keeps what is held; check this before taking the clip as complete.
    public var shortfall: Shortfall? {
        switch body.shortfall {
        case .beforeSession: .beforeSession
        case .notHeld: .notHeld
        case nil: nil
        }
    }

    /// Why a clip holds less than was asked for.
    public enum Shortfall: Sendable, Equatable {
        /// The range began before the session's first frame: nothing was recorded there.
        case beforeSession
        /// Part of the range was recorded but the replay buffer (and the recording file, if any)
        /// no longer holds it: it is lost. `rec save` exits 1 for this, keeping the clip.
        case notHeld
    }
    /// The report as `rec save` prints it.
    public var description: String { SaveText.text(body) }
}

/// What ``CaptureSession/capturePhoto(into:overwrite:)`` wrote: the report `rec snapshot` prints.
public struct PhotoReport: Sendable, CustomStringConvertible {
    let body: SnapshotReport

    init(_ body: SnapshotReport) { self.body = body }

    /// The photo.
    public var url: URL { URL(fileURLWithPath: body.path) }
    /// Its width in pixels (nil for a camera's own JPEG, stored as it came).
    public var width: Int? { body.width }
    /// Its height in pixels (nil for a camera's own JPEG).
    public var height: Int? { body.height }
    /// Its size in bytes.
    public var bytes: Int { body.bytes ?? 0 }
    /// When its frame was captured, on the session's clock: the frame's ``Frame/time``.
    public var time: Duration { body.exactTime?.duration ?? .seconds(body.time ?? 0) }
    /// The report as `rec snapshot` prints it.
    public var description: String { SnapshotText.text(body) }
}

/// How a session ended: the summary `rec stop` prints.
public struct StopSummary: Sendable, CustomStringConvertible {
    let body: RecCore.StopSummary

    init(_ body: RecCore.StopSummary) { self.body = body }

    /// The recording file, if the session had one.
    public var url: URL? { body.path.map { URL(fileURLWithPath: $0) } }
    /// How long the recording is: from its first frame to the end of its last, the newest
    /// frame's ``Frame/time`` plus one frame at the source's rate.
    public var duration: Duration { body.exactDuration?.duration ?? .seconds(body.duration ?? 0) }
    /// Frames captured.
    public var frames: Int { body.frames ?? 0 }
    /// Frames dropped (late for the encoder, or lost by the source).
    public var droppedFrames: Int { body.dropped ?? 0 }
    /// The recording file's size in bytes.
    public var bytes: Int { body.bytes ?? 0 }
    /// Why the recording failed, if it did.
    public var failure: RecError? { body.failure.map(RecError.init) ?? body.error.map { RecError(kind: .failed, message: $0) } }
    /// The summary as `rec stop` prints it.
    public var description: String { StopText(body).text }
}

/// Counts and rates of a running session: a snapshot, read-only (``CaptureSession/statistics``
/// makes a new one each time it is read).
public struct Statistics: Sendable {
    /// Frames captured so far.
    public private(set) var framesCaptured = 0
    /// Frames dropped: late for the encoder, or lost by the source.
    public private(set) var droppedFrames = 0
    /// The measured frame rate.
    public private(set) var framesPerSecond = 0.0
    /// The capture time of the newest frame.
    public private(set) var newestFrame: Duration = .zero
    /// What the replay buffer holds, on the session's clock.
    public private(set) var replayBuffer: Range<Duration>?
    /// Bytes the replay buffer holds.
    public private(set) var replayBufferBytes = 0
    /// Why the recording failed, once it has.
    public private(set) var failure: RecError?
    /// Why the recording file ended early while the session records on into its replay
    /// buffer (a full disk, a folder removed); the file is whole up to there.
    public private(set) var recordingFailure: RecError?

    init() {}

    init(_ stats: RecorderStats, ring: RingStats) {
        framesCaptured = stats.framesCaptured
        droppedFrames = stats.droppedLate + stats.droppedBySource
        framesPerSecond = stats.realFrameRate
        newestFrame = stats.lastCaptureTime.duration
        if let start = ring.start, let end = ring.end { replayBuffer = start.duration..<max(start, end).duration }
        replayBufferBytes = ring.bytes
        if stats.state == .failed { failure = Self.failure(of: stats) }
        recordingFailure = stats.fileFailure.map(RecError.init)
    }

    /// A failed recording's error, whole when it was kept.
    static func failure(of stats: RecorderStats) -> RecError {
        stats.failure.map(RecError.init) ?? RecError(kind: .failed, message: stats.lastError ?? "the recording failed")
    }
}
