import RecCore

/// Why a call failed: a ``kind`` to switch on, a sentence for people, and the cause.
///
/// Every throwing call in this module throws a `RecError` (typed throws), so a `catch` needs no
/// cast. Decide on ``kind``; show ``message`` (what went wrong and what to try next, in this
/// API's words); log ``cause`` (the system's or FFmpeg's own text). Never match the message's
/// text: it may be reworded in any release, the kinds may not.
///
/// ```swift
/// do {
///     try await session.start()
/// } catch {
///     switch error.kind {
///     case .refused, .unreachable, .timedOut: print("camera offline: \(error.message)")  // try again later
///     case .unauthorized: print("check the camera's password")
///     default: print("rec: \(error)")
///     }
/// }
/// ```
public struct RecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Kind: Sendable, Hashable {
        /// Something asked for cannot work (a size, a time, a source that does not parse, an
        /// empty range): fix the call.
        case invalidRequest
        /// The output file exists and `overwrite` was false.
        case alreadyExists
        /// The file, camera, stream or path does not exist (a 404 for a network camera).
        case notFound
        /// The host cannot be found or reached, or gave nothing that could be read.
        case unreachable
        /// The host refused the connection: nothing listens on that port.
        case refused
        /// The server wants a user name and password, or refused the ones in the URL.
        case unauthorized
        /// The system refused access (a camera's or file's permissions).
        case notPermitted
        /// No answer within the time allowed (connecting, the first frame, a stalled camera).
        case timedOut
        /// A codec, container, pixel format or mode that cannot be used here.
        case unsupported
        /// The camera is held by another program, or its bus has no room for the mode.
        case deviceBusy
        /// The camera went away (unplugged, or it stopped answering).
        case deviceGone
        /// A network camera's connection broke after it had delivered frames.
        case connectionLost
        /// No room left to write: the disk or quota is full, or a file size limit was reached.
        case diskFull
        /// The folder does not exist or cannot be written.
        case notWritable
        /// The range is not held by the replay buffer (nor the recording): ``RecError/held``
        /// says what is.
        case rangeNotHeld
        /// The session has ended; make a new one.
        case sessionEnded
        /// Anything else that failed while running; ``RecError/cause`` says what.
        case failed
    }

    /// What kind of failure it is.
    public let kind: Kind
    /// What went wrong and what to try next, one sentence, without the cause.
    public let message: String
    /// The underlying failure, when one is known, such as `avcodec_open2: Invalid argument`.
    public let cause: String?
    /// For ``Kind/rangeNotHeld``: the range a save is served from, on the session's clock, as
    /// the message says it: ``ReplayBuffer/range``'s, starting up to a frame earlier (just after
    /// the last picture let go, where a save of it starts the same).
    public let held: Range<Duration>?
    /// Whether the call itself was wrong (a usage error) rather than something failing as it ran.
    public let isUsageError: Bool

    /// Makes an error of your own in the same shape, for code that reports through it.
    public init(kind: Kind, message: String, cause: String? = nil) {
        self.init(kind: kind, message: message, cause: cause, held: nil,
                  isUsageError: kind == .invalidRequest || kind == .alreadyExists)
    }

    init(kind: Kind, message: String, cause: String?, held: Range<Duration>?, isUsageError: Bool) {
        self.kind = kind
        self.message = message
        self.cause = cause
        self.held = held
        self.isUsageError = isUsageError
    }

    /// The message with its cause, as `rec` prints it after `rec: `.
    public var description: String { cause.map { "\(message) (\($0))" } ?? message }

    /// The exit status `rec` ends with for this error: 64 (`EX_USAGE`) for a usage error, else 1.
    public var exitStatus: Int32 { isUsageError ? 64 : 1 }

    package init(_ error: RecCore.RecError) {
        let usage = error.code == .usage
        self.init(kind: Kind(error.kind, usage: usage), message: APIWording.message(error.message), cause: error.cause,
                  held: error.held.map { $0.lowerBound.duration..<$0.upperBound.duration }, isUsageError: usage)
    }
}

extension RecError.Kind {
    init(_ reason: RecCore.RecError.Reason?, usage: Bool) {
        switch reason {
        case .alreadyExists: self = .alreadyExists
        case .notFound: self = .notFound
        case .unreachable: self = .unreachable
        case .refused: self = .refused
        case .unauthorized: self = .unauthorized
        case .notPermitted: self = .notPermitted
        case .timedOut: self = .timedOut
        case .unsupported: self = .unsupported
        case .deviceBusy: self = .deviceBusy
        case .deviceGone: self = .deviceGone
        case .connectionLost: self = .connectionLost
        case .diskFull: self = .diskFull
        case .notWritable: self = .notWritable
        case .rangeNotHeld: self = .rangeNotHeld
        case .sessionEnded: self = .sessionEnded
        case nil: self = usage ? .invalidRequest : .failed
        }
    }
}

/// Runs `body`, turning the package's errors into the public type.
func publicErrors<T>(_ body: () throws(RecCore.RecError) -> T) throws(RecError) -> T {
    do { return try body() } catch { throw RecError(error) }
}
