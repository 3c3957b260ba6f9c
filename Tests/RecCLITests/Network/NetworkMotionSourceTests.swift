import Foundation
import Testing
import TestServers
import TestPool

/// Issue 40: `--motion-source`, a camera's second stream read for motion alone. The recorded
/// stream is /h264, whose bar moves in every frame; the motion stream is /motion, whose square
/// moves on frames 150–239 only. Events at 5–8 s and none before show that motion came from the
/// second stream, placed on the session's timeline by the two streams' wall clocks.
@Suite(.blocking) struct NetworkMotionSourceTests {
    typealias Sandbox = BackgroundSessionTests.Sandbox
    typealias Save = NetworkMotionSaveTests

    @Test func motionComesFromTheMotionStream() throws {
        let server = try RTSPTestServer(.init(size: Save.size))
        let box = try Sandbox()
        let masks = Save.masks(Save.picture, margin: Save.slack)
        let start = try box.rec(["start", "--source", server.url(.h264), "--motion", "--motion-source", server.url(.motion),
                                 "--no-file"] + masks)
        try #require(start.status == 0, "rec start: \(start.error)")
        try Save.waitUntil(10.5, box)
        let report = try MotionReport(box.rec(["events", "--json", "--levels"]))
        let status = try box.status()["extra"] as? [String: String] ?? [:]
        #expect(try box.rec(["stop"]).status == 0)
        // The second stream connects after the first picture of the recorded one: its frame 150
        // comes a little after 5 s of session time.
        #expect(report.events.count == 1, "\(report.events)")
        if let event = report.events.first {
            #expect(event.start >= 5.0 && event.start <= 6.5 && event.end - event.start >= 2.6 && event.end - event.start <= 3.2, "\(event)")
        }
        #expect((Int(status["motion_analysed"] ?? "0") ?? 0) >= 40, "\(status)")
        // Nothing moved in the motion stream before its square did, though the recorded bar did.
        let early = report.levels.prefix(20).compactMap { $0 }
        #expect(!early.isEmpty && early.allSatisfy { $0 == 0 }, "levels \(report.levels.prefix(25))")
    }
}
