/// The body of a failed reply: a code and a message for the user.
package struct ControlError: Sendable, Equatable, Codable, Error {
    /// Why a request failed. Unknown codes from a newer peer decode as `.runtime`.
    package enum Code: String, Sendable, Equatable, Codable {
        /// The request was understood but its values are wrong (a relative path, a bad time).
        case usage
        /// The session could not do it (disk full, nothing in the ring, encoder failed).
        case runtime
        /// The message itself was wrong: not JSON, too long, unknown type, wrong version, missing field.
        case `protocol`

        package init(from decoder: any Decoder) throws {
            let raw = try decoder.singleValueContainer().decode(String.self)
            self = Code(rawValue: raw) ?? .runtime
        }
    }

    package var code: Code
    /// What went wrong and what to try next, as `rec` would print it.
    package var message: String
    /// The underlying failure, if any, e.g. "avio_open: Permission denied".
    package var cause: String?

    package init(_ code: Code, _ message: String, cause: String? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// The reply for a `RecError` thrown while handling a request.
    package init(_ error: RecError) {
        self.init(error.code == .usage ? .usage : .runtime, error.message, cause: error.cause)
    }

    /// The error a client shows its user: usage stays usage, the rest are runtime failures.
    package var recError: RecError {
        RecError(code == .usage ? .usage : .runtime, message, cause: cause)
    }
}
