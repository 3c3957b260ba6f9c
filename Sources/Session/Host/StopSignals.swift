import Dispatch
import Glibc
import Synchronization

/// Turns SIGINT and SIGTERM into a clean stop. The handlers are installed before `init` returns
/// (`SignalPipe`), so a signal that arrives at any moment after that is kept, even one that comes
/// before `whenStopped` says what a stop does; they stay installed while the value lives, so a
/// second Ctrl-C does not kill a file being finished.
package final class StopSignals: Sendable {
    private enum Phase {
        /// No action yet; `asked` once a signal came.
        case waiting(asked: Bool)
        case acting(@Sendable () -> Void)
    }

    private let phase = Mutex(Phase.waiting(asked: false))
    private let registrations = Mutex<[(signal: Int32, id: UInt64)]>([])

    /// Installs the handlers; a stop that comes now waits for `whenStopped`.
    package init() {
        let queue = DispatchQueue(label: "rec.signals")
        let ids = [SIGINT, SIGTERM].map { sig in
            (sig, SignalPipe.register(sig, queue: queue) { [weak self] in self?.signalled() })
        }
        registrations.withLock { $0 = ids }
    }

    /// Installs the handlers; each stop signal calls `onStop`.
    package convenience init(onStop: @escaping @Sendable () -> Void) {
        self.init()
        whenStopped(onStop)
    }

    /// Calls `onStop` on each stop signal from now on, and at once if one came already.
    package func whenStopped(_ onStop: @escaping @Sendable () -> Void) {
        let asked = phase.withLock { phase -> Bool in
            defer { phase = .acting(onStop) }
            if case .waiting(let asked) = phase { return asked }
            return false
        }
        if asked { onStop() }
    }

    private func signalled() {
        let action = phase.withLock { phase -> (@Sendable () -> Void)? in
            switch phase {
            case .waiting:
                phase = .waiting(asked: true)
                return nil
            case .acting(let action):
                return action
            }
        }
        action?()
    }

    deinit {
        for (sig, id) in registrations.withLock({ $0 }) { SignalPipe.unregister(sig, id: id) }
    }
}

/// Runs `action` on its own serial queue each time `signal` arrives, while the value lives:
/// SIGUSR1 saves the last moments of a session.
package final class SignalAction: Sendable {
    private let signalNumber: Int32
    private let id: UInt64

    package init(_ signalNumber: Int32, queue label: String, action: @escaping @Sendable () -> Void) {
        self.signalNumber = signalNumber
        id = SignalPipe.register(signalNumber, queue: DispatchQueue(label: label), action: action)
    }

    deinit {
        SignalPipe.unregister(signalNumber, id: id)
    }
}
