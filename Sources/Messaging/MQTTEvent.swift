/// How hard the broker tries to deliver a message (MQTT's quality of service).
package enum MQTTQoS: Int32, Sendable, CaseIterable {
    /// Sent once, lost if the connection is down: events that are stale a second later.
    case atMostOnce = 0
    /// Sent until the broker acknowledges it, maybe twice: save requests, finished saves.
    case atLeastOnce = 1
    /// Exactly once, with a four-way handshake.
    case exactlyOnce = 2
}

/// A message as the broker delivered it, its bytes copied out of libmosquitto.
package struct MQTTMessage: Sendable, Equatable {
    package var topic: String
    package var payload: [UInt8]
    /// Whether the broker kept it for new subscribers (sent from its store on subscribing).
    package var retained: Bool
    package var qos: MQTTQoS

    package init(topic: String, payload: [UInt8], retained: Bool = false, qos: MQTTQoS = .atMostOnce) {
        self.topic = topic
        self.payload = payload
        self.retained = retained
        self.qos = qos
    }

    /// The payload as UTF-8 text (invalid bytes replaced).
    package var text: String { String(decoding: payload, as: UTF8.self) }
}

/// The message the broker publishes for this client when its connection ends without a clean
/// disconnect (a killed process, a cut network, a missed keepalive): MQTT's last will.
package struct MQTTWill: Sendable, Equatable {
    package var topic: String
    package var payload: [UInt8]
    package var qos: MQTTQoS
    /// Retained, so a subscriber that comes later still learns the session is gone.
    package var retained: Bool

    package init(topic: String, payload: [UInt8], qos: MQTTQoS = .atLeastOnce, retained: Bool = true) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retained = retained
    }

    package init(topic: String, text: String, qos: MQTTQoS = .atLeastOnce, retained: Bool = true) {
        self.init(topic: topic, payload: Array(text.utf8), qos: qos, retained: retained)
    }
}

/// Why the broker refused the connection: MQTT 3.1.1's CONNACK return codes, in words.
package enum MQTTRefusal: Sendable, Equatable, CustomStringConvertible {
    case unacceptableProtocolVersion
    case identifierRejected
    case serverUnavailable
    case badUserNameOrPassword
    case notAuthorized
    case other(Int32)

    /// The CONNACK return code (1 to 5); `other` for any code MQTT 3.1.1 does not define.
    package init(code: Int32) {
        switch code {
        case 1: self = .unacceptableProtocolVersion
        case 2: self = .identifierRejected
        case 3: self = .serverUnavailable
        case 4: self = .badUserNameOrPassword
        case 5: self = .notAuthorized
        default: self = .other(code)
        }
    }

    /// Whether the broker refused who the client said it was: the user, the password, or its
    /// right to connect.
    package var isCredentials: Bool { self == .badUserNameOrPassword || self == .notAuthorized }

    package var description: String {
        switch self {
        case .unacceptableProtocolVersion: "the broker does not speak MQTT 3.1.1"
        case .identifierRejected: "the broker rejected the client id; give another with client-id="
        case .serverUnavailable: "the broker is unavailable"
        case .badUserNameOrPassword: "bad user name or password; check the user and password in the broker URL"
        case .notAuthorized: "not authorised: the broker refused this user or its password; check them in the broker URL"
        case .other(let code): "the broker refused the connection (code \(code))"
        }
    }
}

/// What a connection reports on its queue, in the order it happened.
package enum MQTTEvent: Sendable, Equatable {
    /// The broker accepted the connection; every subscription has been asked for again.
    case connected
    /// The connection ended or could not be made. `willRetry` says whether libmosquitto goes on
    /// trying (an outage: yes; a TLS failure or `close()`: no).
    case disconnected(reason: String, willRetry: Bool)
    /// The broker answered and said no (libmosquitto tries again after its backoff).
    case refused(MQTTRefusal)
    /// The broker answered a SUBSCRIBE: the filter is active (`granted`) or the broker refused it
    /// (its access list). After a connect, `.connected` follows the last of these.
    case subscribed(topic: String, granted: Bool)
    /// A message on a subscribed topic.
    case message(MQTTMessage)
}

/// What `publish` did with a message.
package enum MQTTPublishOutcome: Sendable, Equatable {
    /// Handed to libmosquitto while connected.
    case sent
    /// QoS 1 or 2 while disconnected: libmosquitto keeps it in memory and sends it once connected.
    case queued
    /// QoS 0 while disconnected: dropped and counted (`droppedWhileDisconnected`).
    case dropped
}

/// A libmosquitto call that failed: the function, its MOSQ_ERR_* code and libmosquitto's words.
package struct MQTTError: Error, Sendable, Equatable, CustomStringConvertible {
    package var operation: String
    package var code: Int32
    package var message: String

    package var description: String { "\(operation): \(message)" }
}
