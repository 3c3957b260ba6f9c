import Foundation
import Testing
import TestServers
import TestPool

/// Issue 40: a session on a real MQTT broker (Debian's mosquitto on loopback), heard and driven
/// through the real `mosquitto_sub` and `mosquitto_pub`. The source is a file ffmpeg draws: a
/// grey picture with a white square still until 3 s, moving right until 5 s, then still, 30 s
/// long (longer than the test), played in real time.
@Suite(.blocking) struct MQTTSessionTests {
    typealias Sandbox = BackgroundSessionTests.Sandbox

    /// Draws the source with the ffmpeg CLI into the sandbox.
    static func motionFile(_ box: Sandbox) throws -> String {
        try motionFile(at: box.path("motion.mp4"))
    }

    static func motionFile(at path: String) throws -> String {
        let result = try Self.tool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=gray:s=320x180:r=30:d=30",
                                                      "-f", "lavfi", "-i", "color=c=white:s=40x40:r=30:d=30", "-filter_complex",
                                                      "[0][1]overlay=x='if(lt(t,3),20,if(lt(t,5),20+(t-3)*100,220))':y=60",
                                                      "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", path])
        try #require(result.status == 0, "ffmpeg: \(result.error)")
        return path
    }

    /// Runs a program from the PATH to completion.
    static func tool(_ name: String, _ arguments: [String]) throws -> RecBinary.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        let out = Pipe(), err = Pipe()
        (process.standardOutput, process.standardError) = (out, err)
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile(), error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return RecBinary.Result(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
                                error: String(decoding: error, as: UTF8.self))
    }

    /// The pictures ffprobe decodes in a file.
    static func frames(_ path: String) throws -> Int {
        let r = try tool("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames",
                                     "-of", "csv=p=0", path])
        return Int(r.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The next message on `topic`, skipping others (bounded by the subscriber's timeout).
    static func next(_ subscriber: MosquittoSubscriber, on topic: String, where matches: (String) -> Bool = { _ in true })
        -> (MosquittoSubscriber.Received, Date)? {
        while let message = subscriber.next(timeout: .seconds(20)) {
            if message.topic == topic, matches(message.text) { return (message, Date()) }
        }
        return nil
    }

    /// The first message on each of `topics`, in whatever order they come.
    static func first(_ subscriber: MosquittoSubscriber, on topics: Set<String>) -> [String: String] {
        var heard: [String: String] = [:]
        while heard.count < topics.count, let message = subscriber.next(timeout: .seconds(20)) {
            if topics.contains(message.topic), heard[message.topic] == nil { heard[message.topic] = message.text }
        }
        return heard
    }

    static func object(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }

    @Test func motionSavesAndABrokerOutage() throws {
        let broker = try MosquittoTestServer(users: ["cam": "s3cret pass"])
        let box = try Sandbox()
        let source = try Self.motionFile(box)
        let subscriber = try broker.subscribe("rec/door/#")
        let url = broker.url(user: "cam", password: "s3cret%20pass")
        let start = try box.rec(["start", "--session", "door", "--source", "file:" + source, "--motion", "--no-file", "--mqtt", url])
        try #require(start.status == 0, "rec start: \(start.error)")
        // The password is in no process's arguments, and the status shows the URL without it.
        let engines = try Self.tool("pgrep", ["-af", "rec-engine"]).output
        #expect(!engines.contains("s3cret") && engines.contains("door"), "\(engines)")
        let status = try box.status("door")["extra"] as? [String: String] ?? [:]
        #expect(status["mqtt"]?.contains("s3cret") == false && status["mqtt"]?.contains("cam:***@") == true, "\(status)")

        // Online, then motion ON at the square's first move and OFF after it stops.
        #expect(Self.next(subscriber, on: "rec/door/status") { $0 == "online" } != nil)
        let on = try #require(Self.next(subscriber, on: "rec/door/motion") { $0 == "ON" })
        let started = try #require(Self.next(subscriber, on: "rec/door/events") { Self.object($0)["type"] as? String == "start" })
        let startBody = Self.object(started.0.text)
        let event = try #require(startBody["event"] as? [String: Any])
        let wallclock = try #require(startBody["wallclock"] as? Double)
        let eventStart = try #require(event["start"] as? Double)
        #expect(eventStart >= 3 && eventStart <= 3.5, "\(event)")
        let off = try #require(Self.next(subscriber, on: "rec/door/motion") { $0 == "OFF" })
        let ended = try #require(Self.next(subscriber, on: "rec/door/events") { Self.object($0)["type"] as? String == "end" })
        let endEvent = try #require(Self.object(ended.0.text)["event"] as? [String: Any])
        let eventEnd = try #require(endEvent["end"] as? Double)
        #expect(eventEnd >= 4.8 && eventEnd <= 5.3, "\(endEvent)")
        // How long after the motion its message came (printed, not asserted: the figures are in
        // docs/EVENTS.md): ON after the first moving picture, OFF after the last one.
        let onLatency = on.1.timeIntervalSince1970 - (wallclock + eventStart)
        let offLatency = off.1.timeIntervalSince1970 - (wallclock + eventEnd)
        print("mqtt motion latency: ON \(String(format: "%.3f", onLatency)) s after the event's first moving picture, "
              + "OFF \(String(format: "%.3f", offLatency)) s after its last (the 2 s of quiet that end an event included)")

        // A save request: the clip, and its report on the reply topic and on `saved`.
        let clip = box.path("asked.mp4")
        try broker.publish("rec/door/save", Array(#"{"id":7,"last":"2s","output":"\#(clip)"}"#.utf8))
        let heard = Self.first(subscriber, on: ["rec/door/save/reply", "rec/door/saved"])
        let reply = try #require(heard["rec/door/save/reply"], "no reply")
        let answer = Self.object(reply)
        #expect(answer["id"] as? Int == 7 && answer["ok"] as? Bool == true, "\(reply)")
        #expect((answer["save"] as? [String: Any])?["frames"] as? Int == 60, "\(reply)")
        #expect(try Self.frames(clip) == 60)
        #expect(heard["rec/door/saved"]?.contains(clip) == true, "\(heard)")

        // Bad messages: an error reply each, and nothing written.
        for bad in ["not json", #"{"id":"x","from":"soon"}"#, #"{"last":"2s","output":"relative.mp4"}"#] {
            try broker.publish("rec/door/save", Array(bad.utf8))
            let r = try #require(Self.next(subscriber, on: "rec/door/save/reply"), "no reply to \(bad)")
            let o = Self.object(r.0.text)
            #expect(o["ok"] as? Bool == false && (o["error"] as? [String: Any])?["message"] as? String != nil, "\(bad): \(r.0.text)")
        }
        #expect(!FileManager.default.fileExists(atPath: box.path("relative.mp4")))

        // The broker killed and started again on its port: the session records on and connects
        // again, and its save topic works again.
        let framesBefore = try box.status("door")["frames"] as? Int ?? 0
        try broker.restart()
        let after = try broker.subscribe("rec/door/#")
        #expect(Self.next(after, on: "rec/door/status") { $0 == "online" } != nil, "the session did not come back online")
        let clip2 = box.path("after.mp4")
        try broker.publish("rec/door/save", Array(#"{"id":8,"last":"1s","output":"\#(clip2)"}"#.utf8))
        let reply2 = try #require(Self.next(after, on: "rec/door/save/reply"))
        #expect(Self.object(reply2.0.text)["ok"] as? Bool == true, "\(reply2.0.text)")
        #expect(try Self.frames(clip2) == 30)
        let state = try box.status("door")
        #expect((state["frames"] as? Int ?? 0) > framesBefore && state["state"] as? String == "recording", "\(state)")
        #expect(try box.rec(["stop", "--session", "door"]).status == 0)
        // A clean stop says offline.
        #expect(Self.next(after, on: "rec/door/status") { $0 == "offline" } != nil)
    }
}
