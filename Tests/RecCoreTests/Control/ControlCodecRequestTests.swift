import Testing
import RecCore

@Suite("ControlCodec requests")
struct ControlCodecRequestTests {
    static let commands: [ControlCommand] = [
        .hello, .status(), .stop,
        .status(StatusRequest(wait: StatusWait(frames: 300, ringEnd: 12.5, timeout: 30))),
        .status(StatusRequest(wait: StatusWait(error: true))),
        .save(SaveRequest(from: .text("-30s"), to: .seconds(12.5), output: "/tmp/a.mkv", keyframe: true)),
        .save(SaveRequest(from: .ago(10), to: .unix(1_764_424_985.25), output: "/tmp/b.mkv", clear: true, force: true)),
        .save(SaveRequest(last: .text("1m"), output: "/tmp/c.mp4")),
        .save(SaveRequest(output: "/tmp/whole ring.mkv")),
        .save(SaveRequest(last: .text("1s"), output: "/tmp/d.mp4", noUpload: true)),
        .snapshot(SnapshotRequest(output: "/tmp/s.png", force: true)),
    ]

    @Test("every request survives encode then decode", arguments: commands)
    func roundTrip(command: ControlCommand) throws {
        let request = ControlRequest(id: .number(7), command: command)
        let line = try ControlCodec.encode(request)
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(line.dropLast().contains(UInt8(ascii: "\n")) == false)
        #expect(ControlCodec.decodeRequest(line.dropLast()) == .request(request))
    }

    @Test("brackets inside strings do not count as nesting")
    func bracketsInStrings() {
        let output = "/tmp/" + String(repeating: "[{", count: 100) + #"\"].mkv"#
        let line = #"{"v":1,"id":1,"type":"save","output":""# + output + #""}"#
        let decoded = ControlCodec.decodeRequest(Array(line.utf8))
        guard case .request = decoded else {
            Issue.record("refused a flat request: \(decoded)")
            return
        }
    }

    @Test("string ids are echoed as strings")
    func stringID() {
        let decoded = ControlCodec.decodeRequest(Array(#"{"v":1,"id":"abc","type":"status"}"#.utf8))
        #expect(decoded == .request(ControlRequest(id: .string("abc"), command: .status())))
    }

    @Test("a status wait is read from the wire form the protocol page shows")
    func statusWait() {
        let decoded = ControlCodec.decodeRequest(Array(#"{"v":1,"id":2,"type":"status","wait":{"frames":300,"ring_end":10,"timeout":30}}"#.utf8))
        let wait = StatusWait(frames: 300, ringEnd: 10, timeout: 30)
        #expect(decoded == .request(ControlRequest(id: .number(2), command: .status(StatusRequest(wait: wait)))))
        #expect(ControlCommand.status(StatusRequest(wait: wait)).isSlow)
        #expect(!ControlCommand.status().isSlow)
    }

    @Test("save defaults: flags false, no range")
    func saveDefaults() {
        let decoded = ControlCodec.decodeRequest(Array(#"{"v":1,"id":1,"type":"save","output":"/x.mkv","extra":"ignored"}"#.utf8))
        #expect(decoded == .request(ControlRequest(id: .number(1), command: .save(SaveRequest(output: "/x.mkv")))))
    }

    @Test("no_upload is read as the protocol page writes it, and written only when true")
    func saveNoUpload() throws {
        let decoded = ControlCodec.decodeRequest(Array(#"{"v":1,"id":1,"type":"save","output":"/x.mkv","no_upload":true}"#.utf8))
        #expect(decoded == .request(ControlRequest(id: .number(1), command: .save(SaveRequest(output: "/x.mkv", noUpload: true)))))
        let plain = String(decoding: try ControlCodec.encode(ControlRequest(id: .number(1), command: .save(SaveRequest(output: "/x.mkv")))), as: UTF8.self)
        #expect(!plain.contains("no_upload"), "\(plain)")
    }

    @Test("clamps_start is read as the protocol page writes it, and written only when true")
    func saveClampsStart() throws {
        var request = SaveRequest(from: .unix(100), to: .unix(160), output: "/x.mkv")
        let plain = String(decoding: try ControlCodec.encode(ControlRequest(id: .number(1), command: .save(request))), as: UTF8.self)
        #expect(!plain.contains("clamps_start"), "\(plain)")
        request.clampsStart = true
        let decoded = ControlCodec.decodeRequest(Array(#"{"v":1,"id":1,"type":"save","output":"/x.mkv","from":{"unix":100},"to":{"unix":160},"clamps_start":true}"#.utf8))
        #expect(decoded == .request(ControlRequest(id: .number(1), command: .save(request))))
        #expect(try request.timeSelection().clampsStart)
    }

    struct Bad: Sendable, CustomStringConvertible {
        var json: String
        var id: ControlID?
        var code: ControlError.Code
        var mentions: String
        var description: String { json }
    }

    static let bad: [Bad] = [
        Bad(json: "{not json", id: nil, code: .protocol, mentions: "malformed JSON"),
        Bad(json: String(repeating: "[", count: 30_000), id: nil, code: .protocol, mentions: "16 levels deep"),
        Bad(json: #"{"v":1,"id":1,"type":"status","x":"# + String(repeating: #"{"a":"#, count: 20_000) + "1}", id: nil,
            code: .protocol, mentions: "16 levels deep"),
        Bad(json: "[1,2]", id: nil, code: .protocol, mentions: "JSON object"),
        Bad(json: #""status""#, id: nil, code: .protocol, mentions: "JSON object"),
        Bad(json: #"{"v":1,"type":"status"}"#, id: nil, code: .protocol, mentions: "'id'"),
        Bad(json: #"{"v":1,"id":{"a":1},"type":"status"}"#, id: nil, code: .protocol, mentions: "'id' must be"),
        Bad(json: #"{"id":3,"type":"status"}"#, id: .number(3), code: .protocol, mentions: "'v'"),
        Bad(json: #"{"v":"1","id":3,"type":"status"}"#, id: .number(3), code: .protocol, mentions: "'v' must be an integer"),
        Bad(json: #"{"v":2,"id":3,"type":"status"}"#, id: .number(3), code: .protocol, mentions: "version 2"),
        Bad(json: #"{"v":1,"id":"x"}"#, id: .string("x"), code: .protocol, mentions: "'type'"),
        Bad(json: #"{"v":1,"id":4,"type":"explode"}"#, id: .number(4), code: .protocol, mentions: "unknown request type 'explode'"),
        Bad(json: #"{"v":1,"id":5,"type":"save"}"#, id: .number(5), code: .protocol, mentions: "missing field 'output'"),
        Bad(json: #"{"v":1,"id":6,"type":"snapshot"}"#, id: .number(6), code: .protocol, mentions: "missing field 'output'"),
        Bad(json: #"{"v":1,"id":7,"type":"save","output":"/a","keyframe":"yes"}"#, id: .number(7), code: .protocol, mentions: "'keyframe'"),
        Bad(json: #"{"v":1,"id":8,"type":"save","output":"/a","from":true}"#, id: .number(8), code: .protocol, mentions: "'from'"),
        Bad(json: #"{"v":1,"id":9,"type":"save","output":"/a","from":{"since":3}}"#, id: .number(9), code: .protocol, mentions: "'from'"),
        Bad(json: #"{"v":1,"id":10,"type":"save","output":"rel.mkv"}"#, id: .number(10), code: .usage, mentions: "absolute"),
        Bad(json: #"{"v":1,"id":11,"type":"save","output":"/a","last":"5s","from":"1s"}"#, id: .number(11), code: .usage, mentions: "not both"),
        Bad(json: #"{"v":1,"id":12,"type":"save","output":"/a","last":{"ago":5}}"#, id: .number(12), code: .usage, mentions: "'last'"),
        Bad(json: #"{"v":1,"id":19,"type":"save","output":"/a","upload":"b:c","no_upload":true}"#, id: .number(19), code: .usage, mentions: "not both"),
        Bad(json: #"{"v":1,"id":13,"type":"snapshot","output":""}"#, id: .number(13), code: .usage, mentions: "empty"),
        Bad(json: #"{"v":1,"id":14,"type":"status","wait":{"timeout":5}}"#, id: .number(14), code: .usage, mentions: "'frames', 'ring_end' or 'error'"),
        Bad(json: #"{"v":1,"id":15,"type":"status","wait":{"frames":-1}}"#, id: .number(15), code: .usage, mentions: "'wait.frames'"),
        Bad(json: #"{"v":1,"id":16,"type":"status","wait":{"ring_end":-3}}"#, id: .number(16), code: .usage, mentions: "'wait.ring_end'"),
        Bad(json: #"{"v":1,"id":17,"type":"status","wait":{"frames":1,"timeout":1e6}}"#, id: .number(17), code: .usage, mentions: "'wait.timeout'"),
        Bad(json: #"{"v":1,"id":18,"type":"status","wait":{"frames":"many"}}"#, id: .number(18), code: .protocol, mentions: "'wait.frames'"),
    ]

    @Test("bad requests become error replies with the id when there is one", arguments: bad)
    func rejected(bad: Bad) throws {
        guard case .rejected(let response) = ControlCodec.decodeRequest(Array(bad.json.utf8)) else {
            Issue.record("accepted \(bad.json)")
            return
        }
        #expect(response.id == bad.id)
        #expect(response.version == ControlCodec.version)
        guard case .error(let error) = response.reply else {
            Issue.record("not an error reply")
            return
        }
        #expect(error.code == bad.code)
        #expect(error.message.contains(bad.mentions), "\(error.message)")
    }

    @Test("invalid UTF-8 is malformed, not a crash")
    func invalidUTF8() {
        guard case .rejected(let response) = ControlCodec.decodeRequest([0xFF, 0xFE, 0x7B]) else {
            Issue.record("accepted garbage")
            return
        }
        #expect(response.reply == .protocolError(response.reply.errorMessage ?? ""))
    }
}

extension ControlReply {
    var errorMessage: String? {
        if case .error(let error) = self { return error.message }
        return nil
    }
}
