import Foundation
import Testing
import TestPool

/// `rec status --wait-frames` / `--wait-until`: the session answers when it gets there, at the
/// timeout, or when its recording ends, and rec's exit status says which.
@Suite(.blocking) struct StatusWaitTests {
    typealias Sandbox = BackgroundSessionTests.Sandbox

    static func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }

    @Test func waitsForFramesAndForTheBufferAndSaysWhenItCannot() throws {
        let box = try Sandbox()
        #expect(try box.rec(["start", "--source", "test:320x240@30", "--no-file"]).status == 0)
        defer { _ = try? box.rec(["stop"]) }
        let frames = try box.rec(["status", "--json", "--wait-frames", "45", "--timeout", "60s"])
        #expect(frames.status == 0, "\(frames.error)")
        #expect(Self.json(frames.output)["wait"] as? String == "met")
        #expect((Self.json(frames.output)["frames"] as? Int ?? 0) >= 45)
        let ring = try box.rec(["status", "--json", "--wait-until", "2s", "--timeout", "60s"])
        #expect(ring.status == 0, "\(ring.error)")
        let extra = Self.json(ring.output)["extra"] as? [String: Any]
        #expect(Double(extra?["ring_end"] as? String ?? "") ?? 0 >= 2)

        let far = try box.rec(["status", "--wait-frames", "1000000", "--timeout", "0.3s"])
        #expect(far.status == 1)
        #expect(far.error.contains("did not reach 1000000 frames within 0.3 s"), "\(far.error)")
        #expect(try box.rec(["status", "--wait-frames", "-2"]).status == 64)
        #expect(try box.rec(["status", "--all", "--wait-frames", "2"]).status == 64)
    }

    @Test func aRecordingThatEndsFirstEndsTheWait() throws {
        let box = try Sandbox()
        #expect(try box.rec(["start", "--source", "test:320x240@30", "--duration", "3s", "--no-file"]).status == 0)
        let r = try box.rec(["status", "--json", "--wait-frames", "100000", "--timeout", "600s"])
        #expect(r.status == 1)
        #expect(r.error.contains("did not reach 100000 frames before its recording ended"), "\(r.error)")
        #expect(Self.json(r.output)["wait"] as? String == "ended")
    }
}
