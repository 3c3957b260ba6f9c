import Testing
import RecCore

@Suite("ControlCodec replies")
struct ControlCodecReplyTests {
    static let replies: [ControlReply] = [
        .ok(.hello(HelloBody(session: "default", pid: 1234))),
        .ok(.status(StatusBody(state: .recording, session: "default", source: "/dev/video0", mode: "ring",
                               uptime: 61.5, frames: 1845, fps: 30, droppedLate: 2, droppedByDriver: 1,
                               encoderLagFrames: 3, bitrate: 4_000_000, ringSpan: 30.2, ringBytes: 15_000_000,
                               output: "/home/u/rec.mkv", outputBytes: 30_000_000, lastError: "EAGAIN",
                               extra: ["codec": "h264"]))),
        .ok(.status(StatusBody(state: SessionState(rawValue: "paused")))),
        .ok(.save(SaveReport(path: "/tmp/a.mkv", requested: ControlSpan(from: 10, to: 20),
                             saved: ControlSpan(from: 9.5, to: 20), frames: 315, droppedInRange: 0,
                             bytes: 1_000_000, keyframe: 9.5, prerollFrames: 15))),
        .ok(.snapshot(SnapshotReport(path: "/tmp/s.png", width: 1280, height: 720, bytes: 900_000, time: 3.2))),
        .ok(.stop(StopSummary(path: "/tmp/r.mkv", duration: 60, frames: 1800, dropped: 3, bytes: 1 << 30))),
        .ok(.stop(StopSummary())),
        .usage("save: 'output' must be an absolute path"),
        .runtime("the ring holds nothing before 12:00:01", cause: "empty range"),
        .protocolError("malformed JSON"),
    ]

    @Test("every reply survives encode then decode", arguments: replies)
    func roundTrip(reply: ControlReply) throws {
        let response = ControlResponse(id: .string("q1"), reply: reply)
        let line = ControlCodec.encode(response)
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(try ControlCodec.decodeResponse(line.dropLast()) == response)
    }

    @Test("the wire form has sorted snake_case keys and a null id when the request had none")
    func golden() {
        let status = ControlResponse(id: nil, reply: .ok(.status(StatusBody(state: .recording, droppedLate: 2, ringSpan: 1.5))))
        #expect(String(decoding: ControlCodec.encode(status), as: UTF8.self)
            == #"{"id":null,"ok":true,"status":{"dropped_late":2,"ring_span":1.5,"state":"recording"},"v":1}"# + "\n")
        let error = ControlResponse(id: .number(3), reply: .protocolError("bad"))
        #expect(String(decoding: ControlCodec.encode(error), as: UTF8.self)
            == #"{"error":{"code":"protocol","message":"bad"},"id":3,"ok":false,"v":1}"# + "\n")
    }

    @Test("requests encode with their fields beside v, id and type")
    func requestGolden() throws {
        let request = ControlRequest(id: .number(2), command: .save(SaveRequest(from: .ago(5), output: "/tmp/x.mkv")))
        #expect(String(decoding: try ControlCodec.encode(request), as: UTF8.self)
            == #"{"clear":false,"force":false,"from":{"ago":5},"id":2,"keyframe":false,"output":"/tmp/x.mkv","type":"save","v":1}"# + "\n")
    }

    @Test("a NaN in a body becomes a runtime error reply, not a crash")
    func nanBody() throws {
        let response = ControlResponse(id: .number(1), reply: .ok(.status(StatusBody(state: .recording, fps: .nan))))
        let decoded = try ControlCodec.decodeResponse(ControlCodec.encode(response).dropLast())
        #expect(decoded.id == .number(1))
        #expect(decoded.reply.errorMessage?.contains("could not encode") == true)
    }

    @Test("unknown error codes read as runtime; unknown fields are ignored")
    func forwardCompatible() throws {
        let line = #"{"v":1,"id":1,"ok":false,"error":{"code":"quota","message":"m","new":1}}"#
        let response = try ControlCodec.decodeResponse(Array(line.utf8))
        #expect(response.reply == .runtime("m"))
    }

    @Test("replies of another version or broken ones are runtime errors for the client", arguments: [
        #"{"v":2,"id":1,"ok":true,"hello":{"protocol":2,"session":"a","pid":1}}"#,
        #"{"v":1,"id":1,"ok":true}"#,
        "garbage",
    ])
    func unreadable(line: String) {
        #expect(throws: RecError.self) { try ControlCodec.decodeResponse(Array(line.utf8)) }
    }

    @Test("error replies turn into the RecError the user sees")
    func recError() {
        #expect(throws: RecError.usage("bad path")) { try ControlReply.usage("bad path").get() }
        #expect(throws: RecError.runtime("x")) { try ControlReply.protocolError("x").get() }
        #expect(ControlReply(RecError.usage("u")) == .usage("u"))
    }
}
