import Foundation
import Messaging
import RecCore
import TestPool
import TestServers
import Testing

/// What goes wrong between rec and its broker: the broker killed and started again, not there yet,
/// a wrong password, a certificate rec cannot trust.
@Suite("MQTT outages", .blocking) struct MQTTOutageTests {
    @Test func aRestartedBrokerIsReconnectedAndTheSubscriptionWorksAgain() throws {
        let broker = try MosquittoTestServer()
        let log = EventLog()
        let connection = try MQTTConnection.make(broker.url(), log: log)
        try connection.subscribe("rec/save")
        let first = try #require(log.connected())

        broker.kill()
        let lost = try #require(log.wait(from: first) { if case .disconnected(_, true) = $0 { true } else { false } })
        #expect(lost.event == .disconnected(reason: "the connection to the broker was lost", willRetry: true))
        // While down: QoS 0 is dropped and counted, QoS 1 kept by libmosquitto for the reconnect.
        #expect(try connection.publish("rec/motion", text: "on") == .dropped)
        #expect(connection.droppedWhileDisconnected == 1)
        #expect(try connection.publish("rec/saved", text: "clip-1", qos: .atLeastOnce, retain: true) == .queued)

        try broker.restart()
        let again = try #require(log.connected(from: lost.position))
        try broker.publish("rec/save", Array("after the restart".utf8))
        #expect(log.message(on: "rec/save", from: again)?.text == "after the restart")
        // The restarted broker kept nothing (no persistence): the retained message it holds is
        // the one queued while it was down.
        let later = try broker.subscribe("rec/saved")
        #expect(later.next() == MosquittoSubscriber.Received(topic: "rec/saved", payload: Array("clip-1".utf8), retained: true))
    }

    @Test func aConnectionMadeBeforeTheBrokerStartsConnectsOnceItDoes() throws {
        let port = try LoopbackPort.free()
        let log = EventLog()
        let connection = try MQTTConnection.make("mqtt://127.0.0.1:\(port)", log: log)
        let refused = try #require(log.wait { if case .disconnected = $0 { true } else { false } })
        #expect(refused.event == .disconnected(reason: "connection refused", willRetry: true))
        let broker = try MosquittoTestServer(port: port)
        #expect(connection.waitUntilConnected(timeout: 10) == .connected)
        withExtendedLifetime(broker) {}
    }

    @Test func aWrongPasswordIsRefusedAndNeverShown() throws {
        let broker = try MosquittoTestServer(users: ["rec": "right-one"])
        let log = EventLog()
        let connection = try MQTTConnection.make(broker.url(user: "rec", password: "Wr0ng-s3cret"), log: log)
        let refusal = try #require(log.wait { if case .refused = $0 { true } else { false } })
        guard case .refused(let why) = refusal.event else { return }
        #expect(why.isCredentials, "\(why)")
        guard case .timedOut(let reason?) = connection.waitUntilConnected(timeout: 0) else {
            Issue.record("a refused connection says why")
            return
        }
        #expect(reason.contains("not authorised") || reason.contains("bad user name or password"), "\(reason)")
        let shown = log.all.map { String(describing: $0) } + [reason, connection.address.redacted, String(reflecting: connection.address)]
        #expect(!shown.contains { $0.contains("Wr0ng-s3cret") }, "\(shown)")

        let right = try MQTTConnection.make(broker.url(user: "rec", password: "right-one"), log: EventLog())
        #expect(right.waitUntilConnected(timeout: 10) == .connected)
    }

    @Test func tlsWithTheTestCAConnects() throws {
        let broker = try MosquittoTestServer(tls: true)
        let subscriber = try broker.subscribe("rec/events", tls: true)
        let log = EventLog()
        let connection = try MQTTConnection.make(broker.url(tls: true, query: "ca=\(broker.caFile)"), log: log)
        #expect(connection.waitUntilConnected(timeout: 10) == .connected)
        try connection.publish("rec/events", text: "over TLS", qos: .atLeastOnce)
        #expect(subscriber.next()?.text == "over TLS")
    }

    @Test func tlsWithoutTheCAFailsAndSaysWhy() throws {
        let broker = try MosquittoTestServer(tls: true)
        let log = EventLog()
        let connection = try MQTTConnection.make(broker.url(tls: true), log: log)
        guard case .stopped(let reason) = connection.waitUntilConnected(timeout: 10) else {
            Issue.record("an untrusted certificate stops the connection: \(log.all)")
            return
        }
        #expect(reason.contains("TLS failed"), "\(reason)")
        #expect(reason.contains("certificate verify failed"), "\(reason)")
        #expect(reason.contains("ca=PATH"), "\(reason)")
    }

    @Test func aCAFileThatIsNotThereIsAUsageError() throws {
        let error = #expect(throws: RecError.self) {
            try MQTTConnection.make("mqtts://rec:s3cr3t@127.0.0.1:1?ca=/nonexistent/ca.crt", log: EventLog())
        }
        #expect(error?.code == .usage)
        #expect(error?.message.contains("cannot read the CA file '/nonexistent/ca.crt'") == true)
        #expect(error?.message.contains("s3cr3t") == false)
    }
}
