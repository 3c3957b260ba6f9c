/// The one error the user sees. `message` says what went wrong and what to try next; the CLI
/// prints `rec: <message>` and exits with `code.exitStatus`.
package struct RecError: Error, Sendable, CustomStringConvertible, Equatable {
    package enum Code: Sendable, Equatable {
        /// The command line or an input file is wrong: exit 64 (EX_USAGE).
        case usage
        /// Something failed while running: exit 1.
        case runtime

        package var exitStatus: Int32 {
            switch self {
            case .usage: 64
            case .runtime: 1
            }
        }
    }

    package var code: Code
    package var message: String
    /// The underlying failure, for logs and `--json`, e.g. "avcodec_open2: Invalid argument".
    package var cause: String?
    /// Where it happened, e.g. a file path or a preset name.
    package var location: String?
    /// What failed, as a value for code that decides on it (retry, reopen, give up); set by the
    /// layer that knows it. `cause` is the same failure as text, for people and logs only.
    package var fault: Fault?
    /// What kind of failure it is, for a program that switches on it (`Rec.RecError.Kind`); set
    /// where it is known, else derived from `fault` and `code` (see `kind`).
    package var reason: Reason?
    /// For `.rangeNotHeld`: what the ring or file holds, on the session's clock.
    package var held: Range<Timestamp>?

    /// A failure a caller may act on.
    package enum Fault: Sendable, Equatable {
        /// A system call failed with this `errno` (EBUSY, EACCES, …).
        case system(errno: Int32)
        /// A camera went away mid-stream (ENODEV, or it did not come back): reopen it when it returns.
        case cameraUnplugged
        /// A camera is there but stopped delivering frames (a stall, a queue error): a reopen may restart it.
        case cameraStopped
        /// A network camera's connection broke, went silent or was closed by the server:
        /// connect again.
        case connectionLost
    }

    package init(_ code: Code, _ message: String, cause: String? = nil, location: String? = nil, fault: Fault? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
        self.location = location
        self.fault = fault
    }

    package static func usage(_ message: String, cause: String? = nil, location: String? = nil,
                             fault: Fault? = nil) -> RecError {
        RecError(.usage, message, cause: cause, location: location, fault: fault)
    }

    package static func runtime(_ message: String, cause: String? = nil, location: String? = nil,
                               fault: Fault? = nil) -> RecError {
        RecError(.runtime, message, cause: cause, location: location, fault: fault)
    }

    package var description: String {
        var text = message
        if let cause { text += " (\(cause))" }
        return text
    }
}
