/// Who may talk to a session's control socket: only processes of the user who owns the session.
///
/// The server reads the peer's uid with `getsockopt(SO_PEERCRED)` and asks this policy; the
/// comparison lives here, apart from the socket, so it can be tested with any uid.
package struct PeerPolicy: Sendable, Equatable {
    /// The uid allowed to connect, normally the session's own (`getuid()`).
    package var allowedUID: UInt32

    package init(allowedUID: UInt32) {
        self.allowedUID = allowedUID
    }

    /// Nil when `peerUID` may connect, else the error sent to the peer before the socket is closed.
    package func check(peerUID: UInt32) -> ControlError? {
        if peerUID == allowedUID { return nil }
        return ControlError(.runtime, "permission denied: this session belongs to uid \(allowedUID) and you are uid \(peerUID); run rec as that user")
    }
}
