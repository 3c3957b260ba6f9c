import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into a clean stop: the first one calls `onStop`; the handlers stay
/// installed while the value lives, so a second Ctrl-C does not kill a file being finished.
public final class StopSignals {
    private let sources: [any DispatchSourceSignal]

    public init(onStop: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "rec.signals")
        sources = [SIGINT, SIGTERM].map { sig in
            signal(sig, SIG_IGN)
            let s = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            s.setEventHandler(handler: onStop)
            s.resume()
            return s
        }
    }

    deinit {
        for s in sources { s.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}

/// Runs `action` on its own serial queue each time `signal` arrives, while the value lives:
/// SIGUSR1 saves the last moments of a session.
public final class SignalAction {
    private let source: any DispatchSourceSignal
    private let signalNumber: Int32

    public init(_ signalNumber: Int32, queue label: String, action: @escaping @Sendable () -> Void) {
        self.signalNumber = signalNumber
        signal(signalNumber, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: signalNumber, queue: DispatchQueue(label: label))
        source.setEventHandler(handler: action)
        source.resume()
    }

    deinit {
        source.cancel()
        signal(signalNumber, SIG_DFL)
    }
}
