import CMosquitto
import Foundation
import RecCore

/// libmosquitto's own set-up, once per process (`mosquitto_lib_init`: OpenSSL and the random
/// source); a global's initialiser runs once, whatever number of threads ask.
private let libraryReady: Void = { _ = mosquitto_lib_init() }()

/// Debian's folder of trusted CA certificates (ca-certificates), what `mqtts://` trusts without `ca=`.
let systemCAFolder = "/etc/ssl/certs"

/// libmosquitto's client object. `@unchecked Sendable` because libmosquitto's threaded interface
/// (after `mosquitto_loop_start`) may be called from any thread: the client guards its own state
/// with its mutexes (state, out packets, messages, callbacks). The pointer never changes and is
/// freed only by `MQTTConnection.deinit`, after libmosquitto's thread has been joined.
struct MosquittoClient: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// A connection to an MQTT broker, over libmosquitto: the one owner of its client object.
///
/// It connects in the background at `init`, on libmosquitto's own network thread
/// (`mosquitto_loop_start`), and keeps connecting after an outage with libmosquitto's backoff
/// (`Options.reconnectDelay`). Subscriptions are remembered and asked for again after every
/// connect (the session is clean: the broker forgets them). Everything it reports — messages,
/// connects, disconnects, refusals — arrives as `MQTTEvent`s on a serial queue of its own, never on
/// libmosquitto's thread, in the order it happened.
///
/// The broker's password goes to libmosquitto (`mosquitto_username_pw_set`) and nowhere else: no
/// event, error or log line holds it.
package final class MQTTConnection: Sendable {
    package struct Options: Sendable {
        /// Seconds between pings when nothing else is sent; the broker ends a client silent for
        /// 1.5 times this, and then publishes its will.
        package var keepAlive: Int32
        /// libmosquitto's reconnect backoff in whole seconds: the first delay, growing with the
        /// square of the attempts (1, 4, 9, 16, 25 s) up to `limit`.
        package var reconnectDelay: (first: UInt32, limit: UInt32)

        package init(keepAlive: Int32 = 30, reconnectDelay: (first: UInt32, limit: UInt32) = (1, 30)) {
            self.keepAlive = keepAlive
            self.reconnectDelay = reconnectDelay
        }
    }

    /// How `waitUntilConnected` ended.
    package enum Wait: Sendable, Equatable {
        case connected
        /// The connection will not connect again (TLS failure, or closed), and why.
        case stopped(String)
        /// Not connected yet; the last reason it gave, if any.
        case timedOut(String?)
    }

    package let address: BrokerAddress
    /// The client identifier the broker knows this connection by: the URL's `client-id=` if it
    /// gives one, else the one `init` was given.
    package let clientID: String
    let client: MosquittoClient
    let shared: MQTTConnectionState
    private let connecting: MQTTFirstConnect

    /// Connects to `address` in the background. `events` is called on the connection's own serial
    /// queue (`label`) with everything it reports; it must not capture the connection strongly.
    /// The `will` is registered with the broker at every connect. Throws for what no retry can mend:
    /// a client id or will topic the library refuses, a CA file it cannot read.
    /// The corresponding C functions are `mosquitto_new`, `mosquitto_will_set`,
    /// `mosquitto_username_pw_set`, `mosquitto_tls_set`, `mosquitto_connect_async` and
    /// `mosquitto_loop_start`.
    package init(address: BrokerAddress, clientID: String, will: MQTTWill? = nil, options: Options = Options(),
                 label: String = "rec.mqtt", events: @escaping @Sendable (MQTTEvent) -> Void) throws(RecError) {
        _ = libraryReady
        self.address = address
        self.clientID = address.clientID ?? clientID
        let shared = MQTTConnectionState(address: address, label: label, handler: events)
        guard let pointer = mosquitto_new(self.clientID, true, shared.userdata) else {
            throw .usage("the MQTT client id '\(self.clientID)' is refused (\(String(cString: strerror(errno)))); "
                         + "give another with client-id= in the broker URL")
        }
        client = MosquittoClient(pointer: pointer)
        self.shared = shared
        do {
            try Self.configure(pointer, address: address, will: will, options: options)
        } catch {
            mosquitto_destroy(pointer)
            throw error
        }
        MQTTConnectionState.install(on: pointer)
        connecting = MQTTFirstConnect(client: client, shared: shared, keepAlive: options.keepAlive,
                                      delays: options.reconnectDelay, label: label)
        connecting.start()
    }

    private static func configure(_ pointer: OpaquePointer, address: BrokerAddress, will: MQTTWill?,
                                  options: Options) throws(RecError) {
        mosquitto_reconnect_delay_set(pointer, options.reconnectDelay.first, options.reconnectDelay.limit, true)
        if let will {
            let result = will.payload.withUnsafeBytes {
                mosquitto_will_set(pointer, will.topic, Int32($0.count), $0.baseAddress, will.qos.rawValue, will.retained)
            }
            guard result == MOSQ_ERR_SUCCESS.rawValue else {
                throw .usage("the last-will topic '\(will.topic)' is refused: \(MQTTReason.text(result))")
            }
        }
        if let user = address.user {
            _ = mosquitto_username_pw_set(pointer, user, address.password)
        }
        guard address.usesTLS else { return }
        if let ca = address.caFile {
            guard FileManager.default.isReadableFile(atPath: ca) else {
                throw .usage("cannot read the CA file '\(ca)' that ca= names in \(address.redacted); check the path")
            }
            let result = mosquitto_tls_set(pointer, ca, nil, nil, nil, nil)
            guard result == MOSQ_ERR_SUCCESS.rawValue else {
                throw .usage("the CA file '\(ca)' is not one libmosquitto can use: \(MQTTReason.text(result)); "
                             + "give a PEM certificate")
            }
        } else {
            // The system's CAs as a folder: libmosquitto 2.0.11's MOSQ_OPT_TLS_USE_OS_CERTS makes
            // every connect after the first fail ("MOSQ_OPT_SSL_CTX_WITH_DEFAULTS used without
            // specifying cafile, capath or psk"), measured.
            _ = mosquitto_tls_set(pointer, nil, systemCAFolder, nil, nil, nil)
        }
        if address.insecure { _ = mosquitto_tls_insecure_set(pointer, true) }
    }

    deinit {
        stopLoop()
        mosquitto_destroy(client.pointer)
    }

    /// Disconnects cleanly (the broker does not publish the will) and stops libmosquitto's
    /// thread; returns once it has ended. Nothing is reported after the `disconnected` event this
    /// makes. Safe to call more than once.
    /// The corresponding C functions are `mosquitto_disconnect` and `mosquitto_loop_stop`.
    package func close() {
        stopLoop()
    }

    private func stopLoop() {
        let first = shared.state.withLock { s in
            guard s.phase != .closed else { return false }
            s.phase = .closed
            return true
        }
        guard first else { return }
        shared.changed.release()
        connecting.finish()
        _ = mosquitto_disconnect(client.pointer)
        _ = mosquitto_loop_stop(client.pointer, false)
    }

    /// Runs `body` on the connection's queue once every event reported so far has been handled.
    package func afterEvents(_ body: @escaping @Sendable () -> Void) { shared.afterEvents(body) }

    /// Whether the connection is up and every subscription has been asked for again.
    package var isConnected: Bool { shared.state.withLock { $0.phase == .connected } }

    /// QoS 0 messages `publish` dropped while disconnected.
    package var droppedWhileDisconnected: Int { shared.state.withLock { $0.dropped } }

    /// Blocks until the connection is up (`connected`), cannot come up any more (`stopped`), or
    /// `timeout` seconds pass; woken by the connection's changes, never by a clock.
    package func waitUntilConnected(timeout: Double) -> Wait {
        _ = shared.changed.wait(until: .after(timeout)) {
            switch shared.state.withLock({ $0.phase }) {
            case .connected, .stopped, .closed: true
            default: false
            }
        }
        return shared.state.withLock { s in
            switch s.phase {
            case .connected: .connected
            case .stopped(let reason): .stopped(reason)
            case .closed: .stopped("closed by rec")
            default: .timedOut(s.lastProblem)
            }
        }
    }
}
