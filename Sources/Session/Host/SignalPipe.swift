import Dispatch
import Foundation
import Glibc
import Synchronization

/// Signals as bytes in a pipe (the self-pipe trick): the handler, installed with `sigaction`
/// before `register` returns, writes the signal's number, and one thread reads the pipe and runs
/// the actions registered for that signal, each on its queue.
///
/// libdispatch's signal sources are not used: on Linux they install their handler later, on
/// their manager thread, after the caller has set the signal to `SIG_IGN`, and a SIGTERM in
/// between was lost (`rec record` from a FIFO ignored a stop sent as it opened the FIFO).
enum SignalPipe {
    private struct Registration {
        var id: UInt64
        var queue: DispatchQueue
        var action: @Sendable () -> Void
    }

    private struct State {
        var next: UInt64 = 0
        var actions: [Int32: [Registration]] = [:]
        var reading = false
    }

    /// The pipe's ends; the write end does not block, so a flood of signals never stalls the
    /// handler (the bytes beyond the pipe's capacity are dropped; one is enough to act).
    static let fds: (read: Int32, write: Int32) = {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return (-1, -1) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        return (ends[0], ends[1])
    }()

    private static let state = Mutex(State())

    /// Runs `action` on `queue` each time `signal` arrives, from before this returns until
    /// `unregister`; returns the id to unregister with. Call it on a thread that outlives the
    /// registration (the main thread): the signal is unblocked there.
    static func register(_ signal: Int32, queue: DispatchQueue, action: @escaping @Sendable () -> Void) -> UInt64 {
        let fds = self.fds
        let (id, startReader) = state.withLock { s -> (UInt64, Bool) in
            s.next += 1
            s.actions[signal, default: []].append(Registration(id: s.next, queue: queue, action: action))
            defer { s.reading = true }
            return (s.next, !s.reading)
        }
        if startReader && fds.read >= 0 {
            let thread = Thread { readLoop(fds.read) }
            thread.name = "rec-signals"
            thread.start()
        }
        var handler = sigaction()
        handler.__sigaction_handler.sa_handler = signalPipeHandler
        sigemptyset(&handler.sa_mask)
        handler.sa_flags = SA_RESTART
        sigaction(signal, &handler, nil)
        // A process inherits its parent's blocked signals (a test runner may block them all):
        // unblock this one here, as libdispatch's sources did on their thread, so it is delivered.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        return id
    }

    /// Stops running the action registered as `id`; the last one gone restores `SIG_DFL`.
    static func unregister(_ signal: Int32, id: UInt64) {
        state.withLock { s in
            s.actions[signal]?.removeAll { $0.id == id }
            if s.actions[signal]?.isEmpty ?? true {
                s.actions[signal] = nil
                Glibc.signal(signal, SIG_DFL)
            }
        }
    }

    private static func readLoop(_ fd: Int32) {
        var byte: UInt8 = 0
        while true {
            let n = read(fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            guard n == 1 else { return }
            let actions = state.withLock { $0.actions[Int32(byte)] ?? [] }
            for registration in actions { registration.queue.async(execute: registration.action) }
        }
    }
}

/// The handler: async-signal-safe, it only writes the signal's number into the pipe.
private func signalPipeHandler(_ signal: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(SignalPipe.fds.write, &byte, 1)
    errno = saved
}
