/// What the session answers to a request: a typed body, or an error.
public enum ControlReply: Sendable, Equatable {
    case ok(ControlBody)
    case error(ControlError)

    /// A usage error reply (`"code": "usage"`).
    public static func usage(_ message: String, cause: String? = nil) -> ControlReply {
        .error(ControlError(.usage, message, cause: cause))
    }

    /// A runtime error reply (`"code": "runtime"`).
    public static func runtime(_ message: String, cause: String? = nil) -> ControlReply {
        .error(ControlError(.runtime, message, cause: cause))
    }

    /// A protocol error reply (`"code": "protocol"`).
    public static func protocolError(_ message: String) -> ControlReply {
        .error(ControlError(.protocol, message))
    }

    /// The reply for a `RecError` thrown while handling a request.
    public init(_ error: RecError) {
        self = .error(ControlError(error))
    }

    /// The body, or the error as a `RecError` for the client's user.
    public func get() throws(RecError) -> ControlBody {
        switch self {
        case .ok(let body): body
        case .error(let error): throw error.recError
        }
    }
}

/// The typed body of a successful reply; its JSON key is the request type it answers.
public enum ControlBody: Sendable, Equatable {
    case hello(HelloBody)
    case status(StatusBody)
    case save(SaveReport)
    case snapshot(SnapshotReport)
    case stop(StopSummary)
    case control(CameraControlReport)
}

/// One reply on the wire: protocol version, the request's `id` (nil when the request was too
/// broken to have one) and the reply.
public struct ControlResponse: Sendable, Equatable {
    public var version: Int
    public var id: ControlID?
    public var reply: ControlReply

    public init(id: ControlID?, reply: ControlReply, version: Int = ControlCodec.version) {
        self.version = version
        self.id = id
        self.reply = reply
    }
}
