/// What the session answers to a request: a typed body, or an error.
package enum ControlReply: Sendable, Equatable {
    case ok(ControlBody)
    case error(ControlError)

    /// A usage error reply (`"code": "usage"`).
    package static func usage(_ message: String, cause: String? = nil) -> ControlReply {
        .error(ControlError(.usage, message, cause: cause))
    }

    /// A runtime error reply (`"code": "runtime"`).
    package static func runtime(_ message: String, cause: String? = nil) -> ControlReply {
        .error(ControlError(.runtime, message, cause: cause))
    }

    /// A protocol error reply (`"code": "protocol"`).
    package static func protocolError(_ message: String) -> ControlReply {
        .error(ControlError(.protocol, message))
    }

    /// The reply for a `RecError` thrown while handling a request.
    package init(_ error: RecError) {
        self = .error(ControlError(error))
    }

    /// The body, or the error as a `RecError` for the client's user.
    package func get() throws(RecError) -> ControlBody {
        switch self {
        case .ok(let body): body
        case .error(let error): throw error.recError
        }
    }
}

/// The typed body of a successful reply; its JSON key is the request type it answers.
package enum ControlBody: Sendable, Equatable {
    case hello(HelloBody)
    case status(StatusBody)
    case save(SaveReport)
    case snapshot(SnapshotReport)
    case stop(StopSummary)
    case control(CameraControlReport)
    case events(EventsReport)
}

/// One reply on the wire: protocol version, the request's `id` (nil when the request was too
/// broken to have one) and the reply.
package struct ControlResponse: Sendable, Equatable {
    package var version: Int
    package var id: ControlID?
    package var reply: ControlReply

    package init(id: ControlID?, reply: ControlReply, version: Int = ControlCodec.version) {
        self.version = version
        self.id = id
        self.reply = reply
    }
}
