import CMosquitto
import Dispatch
import Glibc
import RecCore
import Synchronization

/// What a connection knows, shared by its owner (`MQTTConnection`, on the caller's threads) and
/// libmosquitto's callbacks (on libmosquitto's network thread): one `Mutex` over the state that
/// changes together, the serial queue events are delivered on, and a latch pulsed after every
/// change for the threads waiting to be connected. It is the callbacks' `userdata`; the owner
/// keeps it alive until libmosquitto's thread has been joined.
final class MQTTConnectionState: Sendable {
    /// Where the connection is.
    enum Phase: Equatable {
        /// Not connected yet, or between an outage and libmosquitto's next attempt.
        case connecting
        /// The broker accepted the connection; these SUBSCRIBE message ids are not acknowledged yet.
        case subscribing(Set<Int32>)
        /// Accepted, and every subscription asked for again.
        case connected
        /// libmosquitto's loop has ended on a failure it does not retry (TLS), with the reason.
        case stopped(String)
        /// `close()` was called.
        case closed

        /// Whether nothing will connect again (`stopped`, `closed`).
        var isFinal: Bool {
            switch self {
            case .stopped, .closed: true
            default: false
            }
        }

        /// Whether the socket is up (publishes go out now).
        var isOnline: Bool {
            switch self {
            case .subscribing, .connected: true
            default: false
            }
        }
    }

    struct State {
        var phase = Phase.connecting
        /// Topic filters and their QoS, asked for again after every connect, in the order given.
        var subscriptions: [(filter: String, qos: MQTTQoS)] = []
        /// SUBSCRIBE message ids not yet acknowledged, and their filters.
        var pending: [Int32: String] = [:]
        /// Acknowledgements that came before `subscribe` recorded their message id (a fast broker).
        var early: [Int32: Bool] = [:]
        /// QoS 0 messages dropped while disconnected.
        var dropped = 0
        /// The last error libmosquitto logged (its TLS failures say what OpenSSL said there only).
        var lastLoggedError: String?
        /// The reason of the last disconnect or refusal, for a wait that times out.
        var lastProblem: String?
        /// A refusal was just reported: the disconnect libmosquitto reports after it says nothing new.
        var refused = false
    }

    let state = Mutex(State())
    let changed = Latch()
    let address: BrokerAddress
    private let queue: DispatchQueue
    private let handler: @Sendable (MQTTEvent) -> Void

    init(address: BrokerAddress, label: String, handler: @escaping @Sendable (MQTTEvent) -> Void) {
        self.address = address
        queue = DispatchQueue(label: label)
        self.handler = handler
    }

    /// The error libmosquitto logged last, forgotten as it is read.
    func takeLoggedError() -> String? {
        state.withLock { s in
            defer { s.lastLoggedError = nil }
            return s.lastLoggedError
        }
    }

    /// Delivers `event` on the connection's queue, after waking the waiters.
    func report(_ event: MQTTEvent) {
        changed.pulse()
        let handler = handler
        queue.async { handler(event) }
    }

    /// Runs `body` on the connection's queue after every event reported before it.
    func afterEvents(_ body: @escaping @Sendable () -> Void) { queue.async(execute: body) }

    /// The owner's pointer to this object, for libmosquitto's `userdata`.
    var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// The object behind libmosquitto's `userdata` (always set: `mosquitto_new` was given it).
    static func from(_ userdata: UnsafeMutableRawPointer?) -> MQTTConnectionState? {
        userdata.map { Unmanaged<MQTTConnectionState>.fromOpaque($0).takeUnretainedValue() }
    }

    // MARK: - libmosquitto's callbacks (its network thread)

    /// Installs the callbacks on `client`.
    static func install(on client: OpaquePointer) {
        mosquitto_connect_callback_set(client) { client, userdata, code in
            guard let client else { return }
            MQTTConnectionState.from(userdata)?.connectAnswered(client: client, code: code)
        }
        mosquitto_disconnect_callback_set(client) { _, userdata, code in
            let number = errno
            MQTTConnectionState.from(userdata)?.disconnected(code: code, errno: number)
        }
        mosquitto_subscribe_callback_set(client) { _, userdata, mid, count, granted in
            let codes = granted.map { Array(UnsafeBufferPointer(start: $0, count: Int(count))) } ?? []
            let ok = codes.allSatisfy { $0 < 0x80 }
            MQTTConnectionState.from(userdata)?.acknowledged(mid, granted: ok)
        }
        mosquitto_message_callback_set(client) { _, userdata, message in
            guard let message = message?.pointee, let topic = message.topic else { return }
            let payload = message.payload.map {
                Array(UnsafeRawBufferPointer(start: $0, count: Int(message.payloadlen)))
            } ?? []
            MQTTConnectionState.from(userdata)?.report(.message(MQTTMessage(topic: String(cString: topic), payload: payload, retained: message.retain,
                                                       qos: MQTTQoS(rawValue: message.qos) ?? .atMostOnce)))
        }
        mosquitto_log_callback_set(client) { _, userdata, level, text in
            guard level & Int32(MOSQ_LOG_ERR) != 0, let text else { return }
            MQTTConnectionState.from(userdata)?.loggedError(String(cString: text))
        }
    }

    /// An error libmosquitto logged. OpenSSL's words before the broker answered mean the TLS
    /// handshake failed, which ends libmosquitto 2.0.11's loop with no disconnect callback
    /// (lib/loop.c: `net__socket_connect_tls` returns `MOSQ_ERR_TLS`, which is fatal): this line
    /// is the only word of it, so the connection stops here.
    private func loggedError(_ text: String) {
        let line = address.scrubbed(text)
        let reason = MQTTReason.disconnect(code: MOSQ_ERR_TLS.rawValue, errno: 0, logged: line)
        let stopped = state.withLock { s in
            s.lastLoggedError = line
            guard line.hasPrefix("OpenSSL Error"), s.phase == .connecting else { return false }
            s.phase = .stopped(reason)
            s.lastProblem = reason
            return true
        }
        if stopped { report(.disconnected(reason: reason, willRetry: false)) }
    }

    /// CONNACK: accepted (ask for every subscription again) or refused.
    private func connectAnswered(client: OpaquePointer, code: Int32) {
        guard code == 0 else {
            let refusal = MQTTRefusal(code: code)
            state.withLock { s in
                s.refused = true
                s.lastProblem = refusal.description
            }
            report(.refused(refusal))
            return
        }
        let wanted = state.withLock { s in
            s.refused = false
            s.pending = [:]
            s.early = [:]
            return s.subscriptions
        }
        var ids: [Int32: String] = [:]
        for (filter, qos) in wanted {
            var mid: Int32 = 0
            if mosquitto_subscribe(client, &mid, filter, qos.rawValue) == MOSQ_ERR_SUCCESS.rawValue { ids[mid] = filter }
        }
        // The acknowledgements come on this thread, after this callback: none is missed.
        let ready = state.withLock { s in
            guard s.phase != .closed else { return false }
            s.pending = ids
            s.phase = ids.isEmpty ? .connected : .subscribing(Set(ids.keys))
            return ids.isEmpty
        }
        if ready { report(.connected) } else { changed.pulse() }
    }

    /// SUBACK for `mid`: a subscription of the connect's batch (the last one makes the connection
    /// `.connected`) or one `subscribe` asked for since.
    func acknowledged(_ mid: Int32, granted: Bool) {
        enum Next { case subscribed(String), connected(String), later }
        let next = state.withLock { s -> Next in
            guard let filter = s.pending.removeValue(forKey: mid) else {
                s.early[mid] = granted
                return .later
            }
            guard case .subscribing(var batch) = s.phase, batch.remove(mid) != nil else { return .subscribed(filter) }
            s.phase = batch.isEmpty ? .connected : .subscribing(batch)
            return batch.isEmpty ? .connected(filter) : .subscribed(filter)
        }
        switch next {
        case .subscribed(let filter):
            report(.subscribed(topic: filter, granted: granted))
        case .connected(let filter):
            report(.subscribed(topic: filter, granted: granted))
            report(.connected)
        case .later:
            break
        }
    }

    /// The socket closed: after `close()` (code 0), an outage, or a failure libmosquitto's loop
    /// does not retry (then the connection stops for good).
    private func disconnected(code: Int32, errno number: Int32) {
        let willRetry = code != 0 && !MQTTReason.endsTheLoop(code, errno: number)
        let event = state.withLock { s -> MQTTEvent? in
            let reason = MQTTReason.disconnect(code: code, errno: number, logged: s.lastLoggedError)
            s.lastLoggedError = nil
            s.pending = [:]
            if case .stopped = s.phase { return nil }       // said already (a TLS failure)
            if s.phase != .closed { s.phase = willRetry ? .connecting : .stopped(reason) }
            // A refusal has been reported already; libmosquitto follows it with this disconnect.
            if s.refused && code == MOSQ_ERR_CONN_REFUSED.rawValue { return nil }
            s.lastProblem = reason
            return .disconnected(reason: reason, willRetry: willRetry)
        }
        if let event { report(event) } else { changed.pulse() }
    }
}
