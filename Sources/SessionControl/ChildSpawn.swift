import CProcess
import Glibc

/// A program started with `posix_spawnp` (looked up on PATH) by the helpers rec runs: `ssh` and
/// `tar` for other boxes, `rclone` for off-site copies. Standard input is a descriptor the caller
/// keeps or /dev/null; standard output a descriptor the caller keeps or a new pipe; standard error
/// a new pipe. The child starts with no blocked signals and the default action for those rec
/// changes. The parent's ends of the pipes are close-on-exec and belong to the caller, who reads
/// them to their end and reaps the child (`ChildSpawn.reap`).
package struct ChildSpawn {
    package let pid: pid_t
    /// The read end of standard output's pipe; -1 when standard output was handed on.
    package let output: Int32
    /// The read end of standard error's pipe.
    package let error: Int32

    package enum Failure: Error {
        /// `pipe2` failed with this errno.
        case pipe(Int32)
        /// `posix_spawnp` failed with this errno (ENOENT: the program is not installed).
        case spawn(Int32)
    }

    package init(_ program: String, _ arguments: [String], input: Int32? = nil, output: Int32? = nil) throws(Failure) {
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        guard cprocess_pipe_cloexec(&errPipe) == 0, output != nil || cprocess_pipe_cloexec(&outPipe) == 0 else {
            let code = errno
            for fd in outPipe + errPipe where fd >= 0 { close(fd) }
            throw .pipe(code)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, output ?? outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGHUP, SIGUSR1] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawnp(&child, program, &actions, &attributes, argv, environ)
        close(errPipe[1])
        if outPipe[1] >= 0 { close(outPipe[1]) }
        guard result == 0 else {
            close(errPipe[0])
            if outPipe[0] >= 0 { close(outPipe[0]) }
            throw .spawn(result)
        }
        pid = child
        self.output = outPipe[0]
        error = errPipe[0]
    }

    /// Waits for `pid` to end: its exit status, or nil when a signal ended it (the signal in
    /// `signal`), or when it cannot be waited for.
    package static func reap(_ pid: pid_t) -> (status: Int32?, signal: Int32?) {
        var value: Int32 = 0
        while waitpid(pid, &value, 0) < 0 {
            guard errno == EINTR else { return (nil, nil) }
        }
        let signal = value & 0x7f
        return signal == 0 ? ((value >> 8) & 0xff, nil) : (nil, signal)
    }
}
