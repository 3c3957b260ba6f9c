import CMosquitto
import Dispatch
import Glibc

/// Makes a connection's first connect, on a serial queue of its own, and starts libmosquitto's
/// network thread once one has been made.
///
/// libmosquitto 2.0.11's loop retries a connection that was made once, but not one whose first
/// `mosquitto_connect_async` failed at once (a refused loopback port, a name that does not
/// resolve, a TLS handshake on loopback): measured, its thread then sends CONNECT on its next
/// attempt and never reads the answer. So until a first connect is under way, this tries again
/// itself, after libmosquitto's own delays, and only then calls `mosquitto_loop_start`. A TLS
/// failure ends the tries, as it ends libmosquitto's loop (`MQTTConnectionState.loggedError`).
final class MQTTFirstConnect: Sendable {
    private let client: MosquittoClient
    private let shared: MQTTConnectionState
    private let host: String
    private let port: Int32
    private let keepAlive: Int32
    private let delays: (first: UInt32, limit: UInt32)
    private let queue: DispatchQueue

    init(client: MosquittoClient, shared: MQTTConnectionState, keepAlive: Int32, delays: (first: UInt32, limit: UInt32),
         label: String) {
        self.client = client
        self.shared = shared
        host = shared.address.host
        port = Int32(shared.address.port)
        self.keepAlive = keepAlive
        self.delays = delays
        queue = DispatchQueue(label: label + ".connect")
    }

    /// Starts the tries.
    func start() { queue.async { self.attempt(0) } }

    /// Returns once no try is running; after `close()` marked the connection closed, none starts.
    func finish() { queue.sync {} }

    /// One try: connect (its name lookup and, for TLS on loopback, its handshake happen here),
    /// then start libmosquitto's thread, or report why not and try again after the delay.
    /// The corresponding C functions are `mosquitto_connect_async` and `mosquitto_loop_start`.
    private func attempt(_ failures: UInt32) {
        guard !shared.state.withLock({ $0.phase.isFinal }) else { return }
        let result = mosquitto_connect_async(client.pointer, host, port, keepAlive)
        let number = errno
        if result == MOSQ_ERR_SUCCESS.rawValue {
            let started = mosquitto_loop_start(client.pointer)
            if started != MOSQ_ERR_SUCCESS.rawValue {
                stop("cannot start the MQTT connection's thread: \(MQTTReason.text(started))")
            }
            return
        }
        let logged = shared.takeLoggedError()
        let reason = MQTTReason.disconnect(code: result, errno: number, logged: logged)
        // A TLS handshake that failed here has stopped the connection already (its log line).
        if shared.state.withLock({ $0.phase.isFinal }) { return }
        if MQTTReason.isTLS(result, errno: number, logged: logged) || result == MOSQ_ERR_INVAL.rawValue {
            stop(reason)
            return
        }
        let new = shared.state.withLock { s in
            defer { s.lastProblem = reason }
            return s.lastProblem != reason
        }
        // The same reason again is not news (an outage of hours is one event, not hundreds).
        if new { shared.report(.disconnected(reason: reason, willRetry: true)) }
        let delay = min(delays.limit, delays.first * (failures + 1) * (failures + 1))
        queue.asyncAfter(deadline: .now() + .seconds(Int(delay))) { self.attempt(min(failures + 1, 100)) }
    }

    private func stop(_ reason: String) {
        let stopped = shared.state.withLock { s in
            guard !s.phase.isFinal else { return false }
            s.phase = .stopped(reason)
            s.lastProblem = reason
            return true
        }
        if stopped { shared.report(.disconnected(reason: reason, willRetry: false)) }
    }
}
