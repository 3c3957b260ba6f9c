import Foundation
import Glibc
import RecCore

/// The client a request came from, as the handler sees it: a long request (a save waiting for
/// `+20s`) watches it while it waits (`watchHangUp`), and gives up if the client hangs up.
package struct ControlPeer: Sendable {
    /// The connection's fd, valid while the handler runs; -1 for no client.
    let fd: Int32

    init(fd: Int32) {
        self.fd = fd
    }

    /// No client: never hangs up (for calls made without a connection, as in tests).
    package static let none = ControlPeer(fd: -1)

    /// Waits up to `milliseconds` and says whether the client has closed its connection.
    /// A client that only shut down its sending side still waits for the reply, so only a full
    /// close (`POLLHUP`) or an error counts. The corresponding C function is `poll`; with no
    /// client it simply sleeps.
    package func hasHungUp(waiting milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: 0, revents: 0)
        while true {
            let n = poll(&entry, 1, milliseconds)
            if n < 0 && errno == EINTR { continue }
            return n > 0 && entry.revents & Int16(POLLHUP | POLLERR) != 0
        }
    }

    /// Watches, on a thread of its own, for the client to close its connection while a long
    /// request waits, and calls `onHangUp` (once) if it does. Cancel the watch before the request
    /// returns: the connection's fd is only valid until then. With no client, nothing is watched.
    package func watchHangUp(_ onHangUp: @escaping @Sendable () -> Void) -> HangUpWatch {
        HangUpWatch(fd: fd, onHangUp: onHangUp)
    }
}

/// A thread blocked in `poll` on a client's connection and on a pipe that `cancel()` writes:
/// a hang-up or a cancel wakes it at once, and meanwhile it costs nothing.
package final class HangUpWatch: Sendable {
    private let hungUp = Latch()
    private let ended = Latch()
    private let wakeRead: Int32
    private let wakeWrite: Int32

    init(fd: Int32, onHangUp: @escaping @Sendable () -> Void) {
        var fds: [Int32] = [-1, -1]
        guard fd >= 0, pipe(&fds) == 0 else {
            (wakeRead, wakeWrite) = (-1, -1)
            ended.release()
            return
        }
        (wakeRead, wakeWrite) = (fds[0], fds[1])
        for end in fds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let (hungUp, ended, wake) = (self.hungUp, self.ended, fds[0])
        let thread = Thread {
            var entries = [pollfd(fd: fd, events: 0, revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            while true {
                let n = poll(&entries, 2, -1)
                if n < 0 && errno == EINTR { continue }
                // Only a full close (`POLLHUP`) or an error: a client that shut down its sending
                // side still waits for the reply.
                if n > 0 && entries[0].revents & Int16(POLLHUP | POLLERR) != 0, hungUp.release() { onHangUp() }
                break
            }
            ended.release()
        }
        thread.name = "rec-control-hangup"
        thread.start()
    }

    deinit {
        cancel()
        if wakeRead >= 0 { close(wakeRead) }
        if wakeWrite >= 0 { close(wakeWrite) }
    }

    /// Whether the client has hung up.
    package var hasHungUp: Bool { hungUp.isReleased }

    /// Ends the watch and waits for its thread; safe to call more than once.
    package func cancel() {
        if !ended.isReleased, wakeWrite >= 0 {
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
        }
        ended.wait()
    }
}
