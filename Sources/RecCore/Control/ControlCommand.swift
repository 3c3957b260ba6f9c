/// What a client asks a session to do: the `type` of a request and its fields.
package enum ControlCommand: Sendable, Equatable {
    /// Greeting: answered by the server itself with its protocol version, session name and pid.
    case hello
    /// The session's state and counters, now or once a condition holds (`StatusRequest.wait`).
    case status(StatusRequest = StatusRequest())
    /// Write part of the ring to a file.
    case save(SaveRequest)
    /// Write the latest frame to an image.
    case snapshot(SnapshotRequest)
    /// Finish the recording and end the session.
    case stop
    /// Set or read the camera's controls.
    case control(CameraControlRequest)
    /// The motion events, clips and levels of a stretch of the session (`rec events`).
    case events(EventsRequest)

    /// The wire name, the request's `type`.
    package var type: String {
        switch self {
        case .hello: "hello"
        case .status: "status"
        case .save: "save"
        case .snapshot: "snapshot"
        case .stop: "stop"
        case .control: "control"
        case .events: "events"
        }
    }

    /// Every wire name, in documentation order.
    package static let types = ["hello", "status", "save", "snapshot", "stop", "control", "events"]
}

/// One request: a command and the `id` its reply will carry.
package struct ControlRequest: Sendable, Equatable {
    package var id: ControlID
    package var command: ControlCommand

    package init(id: ControlID, command: ControlCommand) {
        self.id = id
        self.command = command
    }
}
