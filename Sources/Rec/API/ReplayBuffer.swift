import RecCore
import Session
import SessionControl

/// The recent encoded frames and sound of a ``CaptureSession``, from which any range is saved
/// exactly: the clip starts on the first frame at or after `from` and ends before `to`, in every
/// player, whatever the keyframes.
///
/// ```swift
/// let report = try await session.replayBuffer.save(from: .seconds(12), to: .seconds(30), to: "clip.mp4")
/// let recent = try await session.replayBuffer.save(last: .seconds(10), to: "last.mp4")
/// ```
/// Times are on the session's clock (the first frame is at zero). A range that ends in the
/// future waits for it. A save runs on a thread of its own at a low priority and never holds up
/// capture or encoding.
public struct ReplayBuffer: Sendable {
    /// How much a replay buffer keeps: whichever limit is reached first drops the oldest group
    /// of pictures.
    public struct Limits: Sendable, Equatable {
        /// The longest span kept; 5 minutes by default.
        public var duration: Duration
        /// The most bytes kept; 1 GiB by default.
        public var bytes: Int

        /// Limits of `duration` and `bytes`; a session refuses less than 1 s or 1 MiB.
        public init(duration: Duration = .seconds(300), bytes: Int = 1 << 30) {
            self.duration = duration
            self.bytes = bytes
        }
    }

    let session: CaptureSession

    /// Saves `[from, to)` of the session to `path`; the extension picks the container (`.mp4`,
    /// `.m4v`, `.mov`, `.mkv`, `.webm`). Returns the report `rec save` prints. A range that
    /// ends after the newest frame is waited for.
    ///
    /// - Throws: a usage error for an empty range, a path that exists (unless `overwrite`), the
    ///   session's own recording, or a range the buffer no longer holds (the message says what it
    ///   holds); a runtime error when the session does not reach the range's end.
    public func save(from: Duration, to end: Duration, to path: String, overwrite: Bool = false) async throws(RecError) -> SaveReport {
        var request = SaveRequest(from: .seconds(Timestamp(from).seconds), to: .seconds(Timestamp(end).seconds),
                                  output: OutputFile.absolute(path), force: overwrite)
        request.waitsForOffsets = true
        return try await save(request)
    }

    /// Saves the last `duration` before now to `path`.
    public func save(last duration: Duration, to path: String, overwrite: Bool = false) async throws(RecError) -> SaveReport {
        try await save(SaveRequest(last: .seconds(Timestamp(duration).seconds), output: OutputFile.absolute(path), force: overwrite))
    }

    /// What the buffer holds now, on the session's clock; nil before the first frame is encoded.
    public var range: Range<Duration>? { session.statistics.replayBuffer }

    private func save(_ request: SaveRequest) async throws(RecError) -> SaveReport {
        let host = try session.runningHost()
        return SaveReport(try await offThread { () throws(RecCore.RecError) in try host.save(request) })
    }
}
