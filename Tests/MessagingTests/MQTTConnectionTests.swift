import Foundation
import Messaging
import RecCore
import TestPool
import TestServers
import Testing

/// rec's MQTT connection against a real mosquitto broker on loopback, with mosquitto's own
/// clients (`mosquitto_pub`, `mosquitto_sub`) on the other side.
@Suite("MQTT connection", .blocking) struct MQTTConnectionTests {
    /// Bytes no text encoding would carry unchanged: a NUL, 0xFF, a newline, UTF-8.
    static let payload: [UInt8] = [0, 1, 0xFF, 0x0A, 0x20] + Array("motion ✓".utf8)

    @Test func aPublishReachesMosquittoSub() throws {
        let broker = try MosquittoTestServer()
        let subscriber = try broker.subscribe("rec/events")
        let log = EventLog()
        let connection = try MQTTConnection.make(broker.url(), log: log)
        #expect(connection.waitUntilConnected(timeout: 10) == .connected)
        #expect(try connection.publish("rec/events", Self.payload, qos: .atLeastOnce) == .sent)
        let received = try #require(subscriber.next())
        #expect(received == MosquittoSubscriber.Received(topic: "rec/events", payload: Self.payload, retained: false))
    }

    @Test func mosquittoPubReachesTheHandlerWithItsExactBytes() throws {
        let broker = try MosquittoTestServer()
        let log = EventLog()
        let connection = try MQTTConnection.make(broker.url(), log: log)
        try connection.subscribe("rec/save", qos: .atLeastOnce)
        #expect(log.wait { $0 == .subscribed(topic: "rec/save", granted: true) } != nil)
        #expect(log.connected() != nil)
        try broker.publish("rec/save", Self.payload)
        let message = try #require(log.message(on: "rec/save"))
        #expect(message.payload == Self.payload)
        #expect(!message.retained)
    }

    @Test func aRetainedMessageReachesALaterSubscriber() throws {
        let broker = try MosquittoTestServer()
        let log = EventLog()
        let connection = try MQTTConnection.make(broker.url(), log: log)
        try connection.subscribe("rec/status")
        #expect(connection.waitUntilConnected(timeout: 10) == .connected)
        try connection.publish("rec/status", text: "online", qos: .atLeastOnce, retain: true)
        // Its own copy coming back says the broker has stored it.
        #expect(log.message(on: "rec/status")?.text == "online")
        let later = try broker.subscribe("rec/status")
        #expect(later.next() == MosquittoSubscriber.Received(topic: "rec/status", payload: Array("online".utf8), retained: true))
    }

    @Test func aCutConnectionPublishesTheWillAndComesBack() throws {
        let broker = try MosquittoTestServer()
        let watcher = try broker.subscribe("rec/status")
        let log = EventLog()
        let will = MQTTWill(topic: "rec/status", text: "offline")
        let connection = try MQTTConnection.make(broker.url(), will: will, log: log)
        try connection.subscribe("rec/save")
        let first = try #require(log.connected())
        #expect(cutConnections(toPort: broker.port) == 1)
        #expect(watcher.next() == MosquittoSubscriber.Received(topic: "rec/status", payload: Array("offline".utf8), retained: false))
        let lost = try #require(log.wait(from: first) { if case .disconnected(_, true) = $0 { true } else { false } })
        // libmosquitto connects again by itself, and the subscription is asked for again.
        let again = try #require(log.connected(from: lost.position))
        try broker.publish("rec/save", Array("after the cut".utf8))
        #expect(log.message(on: "rec/save", from: again)?.text == "after the cut")
        // The will is retained: a subscriber that comes later learns the session went away.
        let later = try broker.subscribe("rec/status")
        #expect(later.next()?.retained == true)
    }

    @Test func closingCleanlyPublishesNoWill() throws {
        let broker = try MosquittoTestServer()
        let watcher = try broker.subscribe("rec/status")
        let log = EventLog()
        let connection = try MQTTConnection.make(broker.url(), will: MQTTWill(topic: "rec/status", text: "offline"), log: log)
        #expect(connection.waitUntilConnected(timeout: 10) == .connected)
        connection.close()
        #expect(log.wait { $0 == .disconnected(reason: "closed by rec", willRetry: false) } != nil)
        // The broker handles connections in order of arrival: had it published the will, the
        // watcher would see it before this marker.
        try broker.publish("rec/status", Array("marker".utf8))
        #expect(watcher.next()?.text == "marker")
        #expect(try connection.publish("rec/status", text: "late", qos: .atLeastOnce) == .dropped)
    }
}
