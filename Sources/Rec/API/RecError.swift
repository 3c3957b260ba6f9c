import RecCore

/// Why a call failed, with the sentence `rec` would print for it.
///
/// Every throwing call in this module throws a `RecError` (typed throws), so a `catch` needs no
/// cast. ``message`` names what went wrong and what to try next, as the command line says it;
/// ``kind`` tells a mistake in what was asked for (a source that does not parse, a file that
/// exists) from a failure while running (a camera unplugged, a disk full).
///
/// The messages are the command line's own sentences, so a few name its options: `--force` is
/// `overwrite:` here, `--from`/`--to` are `save(from:to:to:)`'s times, `--pixel-format` is
/// ``CaptureSession/Configuration/pixelFormat``.
///
/// ```swift
/// do {
///     try await session.start()
/// } catch {
///     print("rec: \(error)")      // the command line's own message
///     exit(error.exitStatus)      // 64 for usage, 1 for runtime
/// }
/// ```
public struct RecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The two kinds of failure, as the command line's exit status tells them apart.
    public enum Kind: Sendable, Equatable {
        /// What was asked for is wrong (a source, a preset, a time, a path): fix the call.
        case usage
        /// Something failed while running (a device, the network, the disk).
        case runtime
    }

    /// Whether the call or the run failed.
    public let kind: Kind
    /// What went wrong and what to try next, one sentence, without the cause.
    public let message: String
    /// The underlying failure, when one is known, such as `avcodec_open2: Invalid argument`.
    public let cause: String?

    /// Makes an error of your own in the same shape, for code that reports through it.
    public init(kind: Kind, message: String, cause: String? = nil) {
        self.kind = kind
        self.message = message
        self.cause = cause
    }

    /// The message with its cause, as `rec` prints it after `rec: `.
    public var description: String { cause.map { "\(message) (\($0))" } ?? message }

    /// The exit status `rec` ends with for this error: 64 (`EX_USAGE`) or 1.
    public var exitStatus: Int32 { kind == .usage ? 64 : 1 }

    package init(_ error: RecCore.RecError) {
        self.init(kind: error.code == .usage ? .usage : .runtime, message: error.message, cause: error.cause)
    }
}

/// Runs `body`, turning the package's errors into the public type.
func publicErrors<T>(_ body: () throws(RecCore.RecError) -> T) throws(RecError) -> T {
    do { return try body() } catch { throw RecError(error) }
}
