import CProcess
import Glibc
import RecCore

/// Another process's exit, awaited without polling: a pidfd (`pidfd_open`, Linux 5.3) becomes
/// readable when the process exits, and `poll` waits on it with a deadline. `rec stop` opens one
/// before it asks the session to stop, so a pid reused afterwards is never mistaken for it.
package final class ProcessExit {
    /// What opening a handle on a pid found.
    package enum Opened {
        case watching(ProcessExit)
        /// No such process: it has exited already.
        case gone
        /// The kernel refused pidfds (ENOSYS before Linux 5.3, EPERM under some seccomp filters):
        /// the caller needs another sign of the exit.
        case refused(code: Int32)
    }

    private let fd: Int32

    private init(fd: Int32) {
        self.fd = fd
    }

    deinit { close(fd) }

    /// A handle on process `pid`. The corresponding C function is `pidfd_open`.
    package static func open(pid: Int32) -> Opened {
        let fd = cprocess_pidfd_open(pid)
        if fd >= 0 {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            return .watching(ProcessExit(fd: fd))
        }
        return errno == ESRCH ? .gone : .refused(code: errno)
    }

    /// Waits until the process has exited or `timeout` has passed; true if it has exited.
    package func wait(timeout: Duration) -> Bool {
        UnixSocket.waitReadable(fd, milliseconds: max(0, UnixSocket.milliseconds(timeout)))
    }
}
