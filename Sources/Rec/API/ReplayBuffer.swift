import Foundation
import RecCore
import Session
import SessionControl

/// The recent encoded frames and sound of a ``CaptureSession``, from which any range is saved
/// exactly: the clip starts on the first frame at or after `from` and ends before `to`, in every
/// player, whatever the keyframes.
///
/// ```swift
/// print(try await session.replayBuffer.save(from: .seconds(12), to: .seconds(30),
///                                           into: URL(fileURLWithPath: "clip.mp4")))
/// print(try await session.replayBuffer.save(last: .seconds(10), into: URL(fileURLWithPath: "last.mp4")))
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

    /// Saves `[from, to)` of the session into a file; its extension picks the container
    /// (`.mp4`, `.m4v`, `.mov`, `.mkv`, `.webm`). Returns the report `rec save` prints. A range
    /// that ends after the newest frame is waited for. Times are whole microseconds, as
    /// ``Frame/time`` is: from one frame's time to another's saves exactly the frames between.
    ///
    /// - Throws: ``RecError/Kind/invalidRequest`` for an empty range or the session's own
    ///   recording, ``RecError/Kind/alreadyExists`` for a file that exists (unless `overwrite`),
    ///   ``RecError/Kind/rangeNotHeld`` for a range the buffer no longer holds
    ///   (``RecError/held`` says what it holds), ``RecError/Kind/diskFull`` or
    ///   ``RecError/Kind/notWritable`` when the clip cannot be written, and
    ///   ``RecError/Kind/failed`` when the session ends before the range does.
    public func save(from: Duration, to end: Duration, into url: URL, overwrite: Bool = false) async throws(RecError) -> SaveReport {
        var request = SaveRequest(from: .seconds(Timestamp(from).seconds), to: .seconds(Timestamp(end).seconds),
                                  output: OutputFile.absolute(url.path), force: overwrite)
        request.waitsForOffsets = true
        return try await save(request)
    }

    /// Saves the last `duration` before now into a file: what is held of it, when the buffer
    /// holds less (``SaveReport/shortfall`` says so).
    public func save(last duration: Duration, into url: URL, overwrite: Bool = false) async throws(RecError) -> SaveReport {
        try await save(SaveRequest(last: .seconds(Timestamp(duration).seconds), output: OutputFile.absolute(url.path), force: overwrite))
    }

    /// What the buffer holds now, on the session's clock; nil before the first frame is encoded.
    public var range: Range<Duration>? { session.statistics.replayBuffer }

    private func save(_ request: SaveRequest) async throws(RecError) -> SaveReport {
        let host = try session.runningHost()
        return SaveReport(try await offThread { () throws(RecCore.RecError) in try host.save(request) })
    }
}
