import Foundation

/// A session's MQTT topics and messages (docs/EVENTS.md, "MQTT"): pure, so that what goes on the
/// wire is tested without a broker. Every topic is under `<prefix>/<session>/` (`rec/` when the
/// broker URL gives no prefix), so several sessions share one broker and one URL.
package struct SessionTopics: Sendable, Equatable {
    package let base: String

    package init(address: BrokerAddress, session: String) {
        base = address.topic(address.prefix.isEmpty ? "rec/" + session : session)
    }

    /// `online` / `offline` (the last will), retained.
    package var status: String { base + "/status" }
    /// `ON` / `OFF` as motion starts and ends, retained (Home Assistant's binary sensor payloads).
    package var motion: String { base + "/motion" }
    /// Each event's start and end, as JSON.
    package var events: String { base + "/events" }
    /// Save requests: the control protocol's `save` fields as JSON.
    package var save: String { base + "/save" }
    /// Where a save request is answered, unless it names its own `reply_to`.
    package var saveReply: String { base + "/save/reply" }
    /// Every finished save (asked by MQTT, the command line, the live page, motion), as JSON.
    package var saved: String { base + "/saved" }

    /// A save request read from a message: the save's fields, and how to answer.
    package struct SaveMessage: Sendable, Equatable {
        package var request: SaveRequest?
        /// Echoed in the reply, as given (a JSON number or string), so a client can match them.
        package var id: String?
        package var replyTo: String?
        /// Why the message is no save request; the reply says it and nothing is saved.
        package var problem: String?
    }

    /// Reads a save request: a JSON object with `save`'s fields (`from`, `to`, `last`, `output`,
    /// `keyframe`, `upload`…), `id` and `reply_to`. A missing `output` is named by `name()`.
    package func saveMessage(_ payload: [UInt8], name: () throws(RecError) -> String) -> SaveMessage {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any] else {
            return SaveMessage(problem: #"a save request is a JSON object such as {"last":"30s"} or {"from":"-20s","to":"+10s"}"#)
        }
        var message = SaveMessage()
        message.id = object["id"].map { value in
            (value as? String).map { "\"" + $0 + "\"" } ?? "\(value)"
        }
        if let reply = object["reply_to"] {
            guard let topic = reply as? String, !topic.isEmpty, !topic.contains("+"), !topic.contains("#") else {
                message.problem = "reply_to must be a topic name without + or #"
                return message
            }
            message.replyTo = topic
        }
        var fields = object
        (fields["id"], fields["reply_to"]) = (nil, nil)
        do {
            if fields["output"] == nil { fields["output"] = try name() }
            let data = try JSONSerialization.data(withJSONObject: fields)
            let request = try JSONDecoder().decode(SaveRequest.self, from: data)
            if let problem = request.problem() {
                message.problem = problem
            } else {
                // Times in rec's syntax are read now, so a typo is answered before anything waits.
                _ = try request.timeSelection()
                message.request = request
            }
        } catch let error as RecError {
            message.problem = error.message
        } catch {
            message.problem = "the save fields are not valid: \(Self.describe(error))"
        }
        return message
    }

    /// A reply: `{"id":…,"ok":true,"save":{…}}` or `{"id":…,"ok":false,"error":{"code":…,"message":…}}`.
    package static func reply(id: String?, _ outcome: Result<SaveReport, RecError>) -> String {
        let body: String
        switch outcome {
        case .success(let report): body = #""ok":true,"save":"# + json(report)
        case .failure(let error): body = #""ok":false,"error":"# + json(ControlError(error))
        }
        return "{" + (id.map { #""id":"# + $0 + "," } ?? "") + body + "}"
    }

    /// An event's start or end: `{"type":"start","session":…,"wallclock":…,"event":{…}}`.
    package static func event(_ type: String, _ event: MotionEvent, session: String, wallclock: Double?) -> String {
        "{" + #""type":"# + json(type) + #","session":"# + json(session)
            + (wallclock.map { #","wallclock":"# + json(($0 * 1000).rounded() / 1000) } ?? "")
            + #","event":"# + json(event.rounded) + "}"
    }

    package static func json<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c):
            return (c.codingPath.map(\.stringValue).joined(separator: ".") + ": " + c.debugDescription)
        case .keyNotFound(let key, _): return "missing field '\(key.stringValue)'"
        @unknown default: return "\(error)"
        }
    }
}
