import Foundation
import RecCore
import Testing

/// Every key the reply encoder writes for `save` and `status` is described in docs/PROTOCOL.md,
/// so a client can be written from the page alone.
@Suite("Reply keys are documented")
struct ReplyKeysDocumentedTests {
    static let protocolPage: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)) ?? ""
    }()

    /// Every key in the encoded body, nested objects (and objects in arrays) included, except the
    /// free-form `extra` object's own keys.
    static func keys(of value: Any) -> Set<String> {
        if let object = value as? [String: Any] {
            return object.reduce(into: Set(object.keys)) { all, entry in
                if entry.key != "extra" { all.formUnion(keys(of: entry.value)) }
            }
        }
        if let array = value as? [Any] { return array.reduce(into: []) { $0.formUnion(keys(of: $1)) } }
        return []
    }

    /// The keys the page never names in backticks.
    static func undocumented(_ keys: Set<String>) -> [String] {
        keys.sorted().filter { !protocolPage.contains("`\($0)`") }
    }

    static func body(_ reply: ControlReply, _ name: String) throws -> [String: Any] {
        let line = ControlCodec.encode(ControlResponse(id: .number(1), reply: reply))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        return try #require(object[name] as? [String: Any])
    }

    static let fullSave = SaveReport(path: "/tmp/a.mkv", requested: ControlSpan(from: 1, to: 2),
                                     saved: ControlSpan(from: 1, to: 2), frames: 30, droppedInRange: 0, bytes: 1000,
                                     keyframe: 0.5, prerollFrames: 15, source: .file, reencoded: 15,
                                     trailingHidden: 1, mode: .keyframe)

    @Test func everySaveKeyIsInProtocolMD() throws {
        let keys = Self.keys(of: try Self.body(.ok(.save(Self.fullSave)), "save"))
        #expect(keys.count == 14, "\(keys.sorted())")
        #expect(Self.undocumented(keys).isEmpty, "save keys not in docs/PROTOCOL.md")
    }

    @Test func everyStatusKeyIsInProtocolMD() throws {
        let sound = StatusSound(device: "pulse", rate: 48000, channels: 2, encoder: "aac", driftPPM: 3, overruns: 0,
                                gaps: 0, gapSeconds: 0, peakDBFS: -6, error: "x")
        var status = StatusBody(state: .recording, session: "s", source: "test", mode: "ring", uptime: 1, frames: 1,
                                fps: 30, droppedLate: 0, droppedByDriver: 0, encoderLagFrames: 0, bitrate: 1,
                                ringSpan: 1, ringBytes: 1, output: "/tmp/r.mkv", outputBytes: 1, lastError: "e",
                                extra: ["ring_start": "0.000"])
        status.audio = sound
        status.audioTracks = [sound, sound]
        status.wait = .met
        let keys = Self.keys(of: try Self.body(.ok(.status(status)), "status"))
        #expect(keys.count > 25, "\(keys.sorted())")
        #expect(Self.undocumented(keys).isEmpty, "status keys not in docs/PROTOCOL.md")
    }

    @Test func theSaveReplyHasNumbersAsNumbersAndEnumsAsWords() throws {
        let save = try Self.body(.ok(.save(Self.fullSave)), "save")
        #expect(save["reencoded"] as? Int == 15)
        #expect(save["trailing_hidden"] as? Int == 1)
        #expect(save["source"] as? String == "file")
        #expect(save["mode"] as? String == "keyframe")
        #expect(save["extra"] == nil)
        let line = ControlCodec.encode(ControlResponse(id: .number(1), reply: .ok(.save(Self.fullSave))))
        #expect(try ControlCodec.decodeResponse(line.dropLast()).reply == .ok(.save(Self.fullSave)))
    }
}
