import RecCore

/// What the session does with each request. The server calls it on the connection's own thread,
/// so calls run concurrently (a slow `save` does not hold up `status`) and must be thread-safe.
/// `hello` is answered by the server and never reaches the handler.
package protocol ControlHandler: Sendable {
    /// The reply to `request`; the server adds the request's `id`. Throwing is not offered:
    /// map a `RecError` with `ControlReply(error)`.
    func handle(_ request: ControlRequest) -> ControlReply

    /// The same, for a request from `peer`: a handler that waits should give up when the peer
    /// hangs up. By default, `handle(_:)`.
    func handle(_ request: ControlRequest, peer: ControlPeer) -> ControlReply
}

extension ControlHandler {
    package func handle(_ request: ControlRequest, peer: ControlPeer) -> ControlReply {
        handle(request)
    }
}

/// A handler made from a closure, for tests and small sessions.
package struct ClosureControlHandler: ControlHandler {
    private let body: @Sendable (ControlRequest) -> ControlReply

    package init(_ body: @escaping @Sendable (ControlRequest) -> ControlReply) {
        self.body = body
    }

    package func handle(_ request: ControlRequest) -> ControlReply {
        body(request)
    }
}
