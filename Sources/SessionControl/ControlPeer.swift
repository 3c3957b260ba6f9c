import Glibc

/// The client a request came from, as the handler sees it: a long request (a save waiting for
/// `+20s`) asks it, while it waits, whether the client has hung up, and gives up if so.
public struct ControlPeer: Sendable {
    /// The connection's fd, valid while the handler runs; -1 for no client.
    let fd: Int32

    init(fd: Int32) {
        self.fd = fd
    }

    /// No client: never hangs up (for calls made without a connection, as in tests).
    public static let none = ControlPeer(fd: -1)

    /// Waits up to `milliseconds` and says whether the client has closed its connection.
    /// A client that only shut down its sending side still waits for the reply, so only a full
    /// close (`POLLHUP`) or an error counts. The corresponding C function is `poll`; with no
    /// client it simply sleeps.
    public func hasHungUp(waiting milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: 0, revents: 0)
        while true {
            let n = poll(&entry, 1, milliseconds)
            if n < 0 && errno == EINTR { continue }
            return n > 0 && entry.revents & Int16(POLLHUP | POLLERR) != 0
        }
    }
}
