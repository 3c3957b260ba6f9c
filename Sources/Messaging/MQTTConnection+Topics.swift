import CMosquitto
import RecCore

extension MQTTConnection {
    /// Subscribes to `filter` (a topic, or a pattern with `+` and `#`), now if connected and
    /// again after every reconnect; the broker's answer is a `subscribed` event. Subscribing to a
    /// filter again replaces its QoS.
    /// The corresponding C function is `mosquitto_subscribe`.
    package func subscribe(_ filter: String, qos: MQTTQoS = .atLeastOnce) throws(MQTTError) {
        let valid = mosquitto_sub_topic_check(filter)
        guard valid == MOSQ_ERR_SUCCESS.rawValue else {
            throw MQTTError(operation: "subscribe '\(filter)'", code: valid, message: MQTTReason.text(valid))
        }
        let online = shared.state.withLock { s in
            s.subscriptions.removeAll { $0.filter == filter }
            s.subscriptions.append((filter, qos))
            return s.phase.isOnline
        }
        // Offline, the next connect asks for it; a connect between the check and this call asks
        // for it too, and a second SUBSCRIBE for the same filter changes nothing.
        guard online else { return }
        var mid: Int32 = 0
        let result = mosquitto_subscribe(client.pointer, &mid, filter, qos.rawValue)
        guard result == MOSQ_ERR_SUCCESS.rawValue else { return }    // disconnected meanwhile: the connect asks
        let early = shared.state.withLock { s -> Bool? in
            guard let granted = s.early.removeValue(forKey: mid) else {
                s.pending[mid] = filter
                return nil
            }
            return granted
        }
        if let early { shared.report(.subscribed(topic: filter, granted: early)) }
    }

    /// Stops receiving `filter` and forgets it for later connects.
    /// The corresponding C function is `mosquitto_unsubscribe`.
    package func unsubscribe(_ filter: String) {
        let online = shared.state.withLock { s in
            s.subscriptions.removeAll { $0.filter == filter }
            return s.phase.isOnline
        }
        if online { _ = mosquitto_unsubscribe(client.pointer, nil, filter) }
    }

    /// Publishes `payload` on `topic`. While disconnected, a QoS 0 message is dropped and counted
    /// (`droppedWhileDisconnected`): motion on/off and events are stale by the time the broker is
    /// back. A QoS 1 or 2 message is kept by libmosquitto, in memory, and sent after the reconnect
    /// (`queued`). After `close()`, or once the connection has stopped for good, every message
    /// is dropped and counted. Throws for a topic that is not one (empty, wildcards, not UTF-8) or a payload
    /// over MQTT's 256 MB.
    /// The corresponding C function is `mosquitto_publish`.
    @discardableResult
    package func publish(_ topic: String, _ payload: [UInt8], qos: MQTTQoS = .atMostOnce,
                         retain: Bool = false) throws(MQTTError) -> MQTTPublishOutcome {
        let valid = mosquitto_pub_topic_check(topic)
        guard valid == MOSQ_ERR_SUCCESS.rawValue else {
            throw MQTTError(operation: "publish to '\(topic)'", code: valid, message: MQTTReason.text(valid))
        }
        let online = shared.state.withLock { s -> Bool? in
            if s.phase.isOnline { return true }
            guard qos == .atMostOnce || s.phase.isFinal else { return false }
            s.dropped += 1
            return nil
        }
        guard let online else { return .dropped }
        let result = payload.withUnsafeBytes {
            mosquitto_publish(client.pointer, nil, topic, Int32(clamping: $0.count), $0.baseAddress, qos.rawValue, retain)
        }
        switch result {
        case MOSQ_ERR_SUCCESS.rawValue:
            return online ? .sent : .queued
        case MOSQ_ERR_NO_CONN.rawValue where qos != .atMostOnce:
            return .queued      // libmosquitto queued it before finding no socket, and resends it on connect
        case MOSQ_ERR_NO_CONN.rawValue:
            shared.state.withLock { $0.dropped += 1 }
            return .dropped     // the connection went down between the check and the call
        default:
            throw MQTTError(operation: "publish to '\(topic)'", code: result, message: MQTTReason.text(result))
        }
    }

    /// Publishes `text` as UTF-8; see `publish(_:_:qos:retain:)`.
    @discardableResult
    package func publish(_ topic: String, text: String, qos: MQTTQoS = .atMostOnce,
                         retain: Bool = false) throws(MQTTError) -> MQTTPublishOutcome {
        try publish(topic, Array(text.utf8), qos: qos, retain: retain)
    }
}
