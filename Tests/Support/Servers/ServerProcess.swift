import CProcess
import Foundation
import Glibc

/// Why a test server did not start, with the end of what it logged.
public struct ServerFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// One child process of the test, spawned with `posix_spawn` and reaped with `waitpid`: a test
/// server's whole life (stop, kill, pause, resume) is a signal and a wait for the kernel to report
/// its effect, never a sleep. Its standard error goes to a log file that failures quote.
public final class ServerProcess {
    public let pid: Int32
    /// The file the process writes its standard error to (removed with this object).
    public let logPath: String
    private let exit: Int32          // pidfd: readable once the process has exited
    /// `waitpid`'s status once the process has been reaped.
    public private(set) var status: Int32?
    private var stopped = false

    /// Starts `executable` with `arguments`, standard input from /dev/null, standard output to
    /// `output` (a descriptor the caller keeps; /dev/null when nil) and standard error to a log.
    public init(_ executable: String, _ arguments: [String], output: Int32? = nil) throws {
        logPath = FileManager.default.temporaryDirectory.appendingPathComponent("rec-server-\(UUID()).log").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let output {
            posix_spawn_file_actions_adddup2(&actions, output, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        // The child starts with no blocked signals and the default action for those we send.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGCONT, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard result == 0 else {
            throw ServerFailure("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
        exit = cprocess_pidfd_open(child)
        guard exit >= 0 else {
            let reason = String(cString: strerror(errno))
            // Every property is set, so deinit runs: it kills and reaps the child.
            throw ServerFailure("this kernel refuses pidfds (\(reason)), which the test servers wait on; Linux 5.3 has them")
        }
        _ = fcntl(exit, F_SETFD, FD_CLOEXEC)
    }

    deinit {
        if status == nil {
            Glibc.kill(pid, SIGKILL)
            reap()
        }
        if exit >= 0 { close(exit) }
        try? FileManager.default.removeItem(atPath: logPath)
    }

    /// Whether the process has not been reaped yet (it may have exited since).
    public var isRunning: Bool { status == nil }

    /// The end of the process's log, for failure messages.
    public func logTail(_ count: Int = 1500) -> String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return String(text.suffix(count))
    }

    /// Waits up to `timeout` (a hang guard) for the process to exit, on its pidfd; reaps it and
    /// returns true if it has.
    @discardableResult
    public func waitForExit(timeout: Duration) -> Bool {
        guard status == nil else { return true }
        var entry = pollfd(fd: exit, events: Int16(POLLIN), revents: 0)
        let ms = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        while true {
            let ready = poll(&entry, 1, ms)
            if ready > 0 { break }
            if ready == 0 { return false }
            if errno != EINTR { break }
        }
        reap()
        return true
    }

    /// Asks the process to end (SIGTERM, then SIGCONT in case it is paused) and waits until it
    /// has; SIGKILL if it has not after 20 s.
    public func stop() {
        guard status == nil else { return }
        Glibc.kill(pid, SIGTERM)
        Glibc.kill(pid, SIGCONT)
        if !waitForExit(timeout: .seconds(20)) { kill() }
    }

    /// Ends the process at once (SIGKILL), as a power cut would, and reaps it.
    public func kill() {
        guard status == nil else { return }
        Glibc.kill(pid, SIGKILL)
        reap()
    }

    /// Stops the process (SIGSTOP) and returns once the kernel reports it stopped: its sockets
    /// stay open and silent, as a hung camera's do.
    public func pause() {
        guard status == nil, !stopped else { return }
        Glibc.kill(pid, SIGSTOP)
        waitForChange(WUNTRACED) { WIFSTOPPED($0) }
        stopped = true
    }

    /// Continues a paused process (SIGCONT) and returns once the kernel reports it running.
    public func resume() {
        guard status == nil, stopped else { return }
        Glibc.kill(pid, SIGCONT)
        waitForChange(WCONTINUED) { $0 == 0xffff }   // WIFCONTINUED
        stopped = false
    }

    /// Waits for the change `options` reports (or the exit, which ends the process's story).
    private func waitForChange(_ options: Int32, _ isIt: (Int32) -> Bool) {
        var value: Int32 = 0
        while true {
            let result = waitpid(pid, &value, options)
            if result == pid {
                if WIFEXITED(value) || WIFSIGNALED(value) { status = value; return }
                if isIt(value) { return }
            } else if result < 0 && errno != EINTR {
                return
            }
        }
    }

    private func reap() {
        var value: Int32 = 0
        while true {
            let result = waitpid(pid, &value, 0)
            if result == pid {
                if WIFEXITED(value) || WIFSIGNALED(value) { status = value; return }
            } else if result < 0 && errno != EINTR {
                status = -1
                return
            }
        }
    }
}

private func WIFEXITED(_ status: Int32) -> Bool { status & 0x7f == 0 }
private func WIFSIGNALED(_ status: Int32) -> Bool { (status & 0x7f) + 1 >= 2 && status & 0x7f != 0x7f }
private func WIFSTOPPED(_ status: Int32) -> Bool { status & 0xff == 0x7f }
