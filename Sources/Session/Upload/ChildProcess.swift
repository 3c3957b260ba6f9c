import Foundation
import Glibc
import Media
import RecCore
import SessionControl

/// One run of a helper program (rclone), spawned with `posix_spawnp` and waited for without
/// polling: the calling thread sleeps in `poll(2)` on the child's output pipes and on a stop
/// flag's wake pipe. When the flag is set the child gets SIGTERM (then SIGKILL if it has not
/// closed its pipes 5 s later), its pipes reach end of file, and `waitpid` reaps it.
enum ChildProcess {
    struct Result: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        var status: Int32
        var output: [UInt8]
        var errorOutput: [UInt8]
        /// Whether the stop flag ended it.
        var interrupted: Bool

        var text: String { String(decoding: output, as: UTF8.self) }
        var errorText: String { String(decoding: errorOutput, as: UTF8.self) }
    }

    enum Failure: Error {
        /// The program is not installed (ENOENT from `posix_spawnp`).
        case notFound(String)
        case cannotStart(String, errno: Int32)
    }

    /// util-linux's `setpriv`, which every Debian has: it asks the kernel to kill the child when
    /// the thread that started it dies (`PR_SET_PDEATHSIG`), so a session killed with SIGKILL
    /// leaves no copy running on, writing to a name the next session writes to.
    static let setpriv: String? = ["/usr/bin/setpriv", "/bin/setpriv"].first { (path: String) in access(path, X_OK) == 0 }

    /// Runs `program` (looked up on PATH) with `arguments`, standard input from /dev/null, and
    /// returns once it has exited. `stop` ends it early.
    static func run(_ program: String, _ arguments: [String], stop: InterruptFlag? = nil) throws(Failure) -> Result {
        if let setpriv {
            // setpriv execs the program: an exit status of 127 (not found) from it means "not installed".
            guard Self.onPath(program) else { throw .notFound(program) }
            return try spawn(setpriv, ["--pdeathsig", "KILL", "--", program] + arguments, stop: stop)
        }
        return try spawn(program, arguments, stop: stop)
    }

    /// Whether `program` is an executable in a folder of PATH.
    static func onPath(_ program: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
    }

    private static func spawn(_ program: String, _ arguments: [String], stop: InterruptFlag?) throws(Failure) -> Result {
        let child: ChildSpawn
        do {
            child = try ChildSpawn(program, arguments)
        } catch {
            switch error {
            case .pipe(let code): throw .cannotStart(program, errno: code)
            case .spawn(let code): throw code == ENOENT ? .notFound(program) : .cannotStart(program, errno: code)
            }
        }
        var result = Result(status: 0, output: [], errorOutput: [], interrupted: false)
        collect(pid: child.pid, out: child.output, err: child.error, stop: stop, into: &result)
        close(child.output)
        close(child.error)
        let (status, signal) = ChildSpawn.reap(child.pid)
        result.status = status ?? signal.map { 128 + $0 } ?? -1
        return result
    }

    /// Reads both pipes until each reaches end of file; signals the child once `stop` is set.
    private static func collect(pid: pid_t, out: Int32, err: Int32, stop: InterruptFlag?, into result: inout Result) {
        var open = [out: true, err: true]
        var killAt: Int32 = -1     // poll timeout after SIGTERM; -1 waits for the pipes
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while open.values.contains(true) {
            var fds = [pollfd(fd: open[out] == true ? out : -1, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: open[err] == true ? err : -1, events: Int16(POLLIN), revents: 0)]
            let watching = stop != nil && !result.interrupted && (stop?.wakeDescriptor ?? -1) >= 0
            if watching, let stop { fds.append(pollfd(fd: stop.wakeDescriptor, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), killAt)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if ready == 0 {
                // SIGTERM was 5 s ago and the child still holds its pipes.
                kill(pid, SIGKILL)
                killAt = -1
                continue
            }
            if watching, fds.count == 3, fds[2].revents != 0 {
                result.interrupted = true
                kill(pid, SIGTERM)
                killAt = 5000
            }
            for (i, fd) in [out, err].enumerated() where fds[i].revents != 0 {
                let n = read(fd, &buffer, buffer.count)
                if n > 0 {
                    if fd == out { result.output += buffer[..<n] } else { result.errorOutput += buffer[..<n] }
                } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                    open[fd] = false
                }
            }
        }
    }}
