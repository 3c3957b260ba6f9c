import Foundation
import Testing
@testable import RecCore

/// Issue 40: a session's MQTT topics and messages, as they go on the wire.
@Suite struct SessionTopicsTests {
    static let address = try! BrokerAddress.parse("mqtt://cam:pw@broker.local")

    @Test func topicsAreUnderThePrefixAndTheSession() throws {
        let topics = SessionTopics(address: Self.address, session: "door")
        #expect(topics.motion == "rec/door/motion" && topics.save == "rec/door/save" && topics.saveReply == "rec/door/save/reply")
        let home = SessionTopics(address: try BrokerAddress.parse("mqtt://broker/home/cams"), session: "yard")
        #expect(home.status == "home/cams/yard/status" && home.saved == "home/cams/yard/saved" && home.events == "home/cams/yard/events")
    }

    @Test func aSaveRequestIsReadWithItsIdAndReplyTopic() {
        let topics = SessionTopics(address: Self.address, session: "door")
        let named = topics.saveMessage(Array(#"{"id":"a1","last":"30s","reply_to":"me/answers"}"#.utf8)) { () throws(RecError) in "/clips/x.mp4" }
        #expect(named.problem == nil && named.id == "\"a1\"" && named.replyTo == "me/answers")
        #expect(named.request == SaveRequest(last: .text("30s"), output: "/clips/x.mp4"))
        let ranged = topics.saveMessage(Array(#"{"id":3,"from":20,"to":{"ago":0},"output":"/c.mp4"}"#.utf8)) { () throws(RecError) in "" }
        #expect(ranged.id == "3" && ranged.request == SaveRequest(from: .seconds(20), to: .ago(0), output: "/c.mp4"), "\(ranged)")
    }

    @Test(arguments: ["", "[]", "not json", #"{"from":"soon"}"#, #"{"last":"2s","output":"relative.mp4"}"#,
                      #"{"last":"2s","reply_to":"a/#"}"#, #"{"keyframe":"yes"}"#])
    func aBadMessageIsAProblemNotASave(_ text: String) {
        let message = SessionTopics(address: Self.address, session: "door").saveMessage(Array(text.utf8)) { () throws(RecError) in "/x.mp4" }
        #expect(message.request == nil && message.problem?.isEmpty == false, "\(text): \(message)")
    }

    @Test func repliesAndEventsAreJSON() throws {
        let ok = SessionTopics.reply(id: "7", .success(SaveReport(path: "/c.mp4", frames: 60)))
        let okObject = try #require(try JSONSerialization.jsonObject(with: Data(ok.utf8)) as? [String: Any])
        #expect(okObject["id"] as? Int == 7 && okObject["ok"] as? Bool == true && (okObject["save"] as? [String: Any])?["frames"] as? Int == 60)
        let failed = SessionTopics.reply(id: nil, .failure(.usage("no")))
        let failedObject = try #require(try JSONSerialization.jsonObject(with: Data(failed.utf8)) as? [String: Any])
        #expect(failedObject["ok"] as? Bool == false && (failedObject["error"] as? [String: Any])?["code"] as? String == "usage")
        let event = SessionTopics.event("start", MotionEvent(id: 2, start: 3.2000001, end: 3.4), session: "door", wallclock: 1000.5)
        #expect(event == #"{"type":"start","session":"door","wallclock":1000.5,"event":{"end":3.4,"id":2,"peak":0,"peak_at":3.2,"start":3.2}}"#)
    }
}
