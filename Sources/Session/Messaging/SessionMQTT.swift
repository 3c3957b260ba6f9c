import Dispatch
import Foundation
import Messaging
import RecCore
import Synchronization

/// A session on an MQTT broker (`rec start --mqtt URL`, docs/EVENTS.md): it says it is online
/// (and the broker says `offline` when it dies: the last will), publishes motion on and off
/// (retained), each event and each finished save, and takes save requests on its `save` topic,
/// answering each on the reply topic. Saves run one after another on a thread of their own; the
/// broker going away costs the session nothing: libmosquitto connects again by itself.
package final class SessionMQTT: Sendable {
    let connection: MQTTConnection
    let topics: SessionTopics
    private let saving = DispatchQueue(label: "rec-mqtt-save")
    private let host = Mutex(WeakSession())
    private let state = Mutex(State())

    struct WeakMQTT {
        weak var value: SessionMQTT?
    }

    struct WeakSession {
        weak var host: SessionHost?
    }

    struct State {
        var connected = false
        var lastProblem: String?
        var requests = 0
        var moving = false
    }

    /// Connects in the background; throws for what no retry mends (a CA file it cannot read).
    init(address: BrokerAddress, session: String) throws(RecError) {
        let topics = SessionTopics(address: address, session: session)
        self.topics = topics
        let box = Mutex(WeakMQTT())
        var host = ProcessInfo.processInfo.hostName
        if let dot = host.firstIndex(of: ".") { host = String(host[..<dot]) }
        connection = try MQTTConnection(address: address, clientID: "rec-\(host)-\(session)",
                                        will: MQTTWill(topic: topics.status, text: "offline"), label: "rec-mqtt") { event in
            box.withLock { $0.value }?.heard(event)
        }
        // The events' handler finds this object once it is made (none arrive before `subscribe`).
        box.withLock { $0.value = self }
        do {
            try connection.subscribe(topics.save, qos: .atLeastOnce)
        } catch {
            throw .runtime("cannot subscribe to \(topics.save): \(error.message)")
        }
    }

    func attach(_ host: SessionHost) {
        self.host.withLock { $0.host = host }
    }

    private var session: SessionHost? { host.withLock { $0.host } }

    /// `rec status` fields.
    var status: [String: String] {
        let s = state.withLock { $0 }
        var out = ["mqtt": connection.address.redacted, "mqtt_state": s.connected ? "connected" : "connecting",
                   "mqtt_topics": topics.base, "mqtt_requests": String(s.requests)]
        if let problem = s.lastProblem { out["mqtt_error"] = problem }
        return out
    }

    private func heard(_ event: MQTTEvent) {
        switch event {
        case .connected:
            state.withLock { ($0.connected, $0.lastProblem) = (true, nil) }
            publish(topics.status, "online", qos: .atLeastOnce, retain: true)
            publish(topics.motion, state.withLock { $0.moving } ? "ON" : "OFF", qos: .atLeastOnce, retain: true)
            session?.log?.write("mqtt: connected to \(connection.address.redacted); topics under \(topics.base)/")
        case .disconnected(let reason, let retrying):
            state.withLock { ($0.connected, $0.lastProblem) = (false, reason) }
            session?.log?.write("mqtt: disconnected: \(reason)" + (retrying ? "; connecting again" : ""))
        case .refused(let refusal):
            state.withLock { ($0.connected, $0.lastProblem) = (false, refusal.description) }
            session?.log?.write("mqtt: the broker refused the connection: \(refusal)")
        case .subscribed: break
        case .message(let message) where message.topic == topics.save:
            state.withLock { $0.requests += 1 }
            saving.async { [self] in answer(message) }
        case .message: break
        }
    }

    private func answer(_ message: MQTTMessage) {
        guard let session else { return }
        let parsed = topics.saveMessage(message.payload) { () throws(RecError) -> String in
            try UserConfig.fileName(pattern: session.configuration.signalClipPattern)
        }
        let replyTopic = parsed.replyTo ?? topics.saveReply
        let outcome: Result<SaveReport, RecError>
        if let request = parsed.request {
            session.log?.write("mqtt: save asked on \(topics.save)")
            do {
                outcome = .success(try session.save(request, by: "mqtt"))
            } catch {
                session.log?.write("mqtt: the save failed: \(error.message)")
                outcome = .failure(error)
            }
        } else {
            let problem = parsed.problem ?? "not a save request"
            session.log?.write("mqtt: a message on \(topics.save) is no save request: \(problem)")
            outcome = .failure(.usage(problem))
        }
        publish(replyTopic, SessionTopics.reply(id: parsed.id, outcome), qos: .atLeastOnce, retain: false)
    }

    /// Motion and clips, from the session's motion (`MotionReactor.subscribers`).
    func tell(_ notice: MotionNotice, session name: String, wallclock: Double?) {
        switch notice {
        case .started(let e):
            state.withLock { $0.moving = true }
            publish(topics.motion, "ON", qos: .atLeastOnce, retain: true)
            publish(topics.events, SessionTopics.event("start", e, session: name, wallclock: wallclock), qos: .atLeastOnce, retain: false)
        case .ended(let e):
            state.withLock { $0.moving = false }
            publish(topics.motion, "OFF", qos: .atLeastOnce, retain: true)
            publish(topics.events, SessionTopics.event("end", e, session: name, wallclock: wallclock), qos: .atLeastOnce, retain: false)
        case .clip: break
        }
    }

    /// Every finished save, whoever asked.
    func saved(_ report: SaveReport) {
        publish(topics.saved, SessionTopics.json(report), qos: .atLeastOnce, retain: false)
    }

    private func publish(_ topic: String, _ text: String, qos: MQTTQoS, retain: Bool) {
        do {
            try connection.publish(topic, text: text, qos: qos, retain: retain)
        } catch {
            state.withLock { $0.lastProblem = error.message }
        }
    }

    /// Says `offline` and disconnects cleanly, when the session stops.
    func stop() {
        publish(topics.status, "offline", qos: .atLeastOnce, retain: true)
        connection.close()
    }
}
