import Foundation
import Glibc
import RecCore
import SessionControl

/// A program rec runs for a box (`ssh`, `tar`, or rec itself for this box), spawned with
/// `posix_spawnp`: standard input from /dev/null, standard output to a pipe rec reads or to a
/// descriptor it hands on (ssh's into tar's), standard error to a pipe rec reads. Its end is
/// awaited on its pidfd with a deadline, at which it is killed.
final class Subprocess {
    /// What a finished (or killed) program left.
    struct Outcome {
        /// The exit status; nil when it was killed at the deadline or by a signal.
        var status: Int32?
        var output: Data
        var error: String
    }

    let pid: pid_t
    private let exit: ProcessExit.Opened
    private var outputPipe: Int32 = -1
    private var errorPipe: Int32 = -1
    private var reaped: Int32??

    /// Starts `program` (searched on PATH) with `arguments`. `input` and `output` are descriptors
    /// for its standard input and output (the caller keeps and closes them); nil means /dev/null
    /// for input and a pipe this object reads for output.
    init(_ program: String, _ arguments: [String], input: Int32? = nil, output: Int32? = nil) throws(RecError) {
        let child: ChildSpawn
        do {
            child = try ChildSpawn(program, arguments, input: input, output: output)
        } catch {
            switch error {
            case .pipe(let code): throw .runtime("cannot make a pipe for \(program): \(String(cString: strerror(code)))")
            case .spawn(let code): throw .runtime("cannot run \(program): \(String(cString: strerror(code))); is it installed?")
            }
        }
        pid = child.pid
        outputPipe = child.output
        errorPipe = child.error
        exit = ProcessExit.open(pid: child.pid)
    }

    deinit {
        if reaped == nil {
            kill(pid, SIGKILL)
            _ = reap()
        }
        if outputPipe >= 0 { close(outputPipe) }
        if errorPipe >= 0 { close(errorPipe) }
    }

    /// Reads standard output (unless handed on) and standard error until both close, then waits
    /// for the exit; at `deadline` the program is killed (SIGKILL) and the outcome has no status.
    func finish(deadline: ContinuousClock.Instant) -> Outcome {
        var output = Data(), error = Data()
        var open = [outputPipe, errorPipe].filter { $0 >= 0 }
        var timedOut = false
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { timedOut = true; break }
            var entries = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&entries, nfds_t(entries.count), Self.milliseconds(left))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            for entry in entries where entry.revents != 0 {
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    if entry.fd == outputPipe { output.append(contentsOf: buffer[..<count]) } else { error.append(contentsOf: buffer[..<count]) }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        if !timedOut, !waitForExit(until: deadline) { timedOut = true }
        if timedOut { kill(pid, SIGKILL) }
        let status = reap()
        return Outcome(status: timedOut ? nil : status, output: output, error: String(decoding: error, as: UTF8.self))
    }

    /// `duration` in whole milliseconds for poll(2), rounded up so a wait never ends early.
    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1))
    }

    /// Waits on the pidfd (where the kernel gives one) until the program has exited or `deadline`.
    private func waitForExit(until deadline: ContinuousClock.Instant) -> Bool {
        guard case .watching(let handle) = exit else { return true }   // reap() below blocks instead
        return handle.wait(timeout: max(.zero, ContinuousClock.now.duration(to: deadline)))
    }

    /// The exit status once the program has ended; nil when a signal ended it.
    private func reap() -> Int32? {
        if let reaped { return reaped }
        let status = ChildSpawn.reap(pid).status
        reaped = .some(status)
        return status
    }
}
