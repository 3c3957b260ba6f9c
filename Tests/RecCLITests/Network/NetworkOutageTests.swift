import Foundation
import Testing
import TestServers
import TestPool

/// Issue 21: outages made for real. The server is killed and restarted on its port, or frozen
/// (SIGSTOP: the connection stays open and says nothing); the session notices, reports the gap,
/// comes back by itself, and saves and files across it say what is missing and play.
@Suite(.blocking) struct NetworkOutageTests {
    typealias Sandbox = BackgroundSessionTests.Sandbox

    /// The session's `--json` status.
    static func status(_ box: Sandbox, wait: [String] = []) throws -> [String: Any] {
        let run = try box.rec(["status", "--json"] + wait)
        if !wait.isEmpty && run.status != 0 { Issue.record("rec status \(wait): \(run.error)") }
        return NetworkClip.object(run.output)
    }

    @Test func aRestartedServerIsAGapThatSavesReport() throws {
        let server = try RTSPTestServer()
        let box = try Sandbox()
        try #require(try box.rec(["start", "--source", server.url(.h264), "-o", "rec.mkv"]).status == 0)
        try box.waitForFrames(60)
        let killed = ContinuousClock.now
        server.kill()
        // Noticed at once: the connection closed.
        let away = try Self.status(box, wait: ["--wait-error", "--timeout", "20s"])
        #expect(NetworkClip.extra(away, "gaps") == "1" && NetworkClip.extra(away, "last_gap") == "ended the stream", "\(away)")
        try server.restart()
        let down = ContinuousClock.now - killed
        let before = away["frames"] as? Int ?? 0
        let back = try Self.status(box, wait: ["--wait-frames", "\(before + 60)", "--timeout", "30s"])
        let upperBound = ContinuousClock.now - killed
        #expect(NetworkClip.extra(back, "gaps") == "1" && back["last_error"] == nil, "\(back)")
        #expect(back["state"] as? String == "recording")

        // A save across the gap: what it holds either side, and how long the camera was away.
        let end = Double(NetworkClip.extra(back, "ring_end") ?? "") ?? 0
        let save = try box.rec(["save", "--from", "1s", "--to", String(format: "%.3f", end), "-o", "gap.mp4", "--json"])
        try #require(save.status == 0, "\(save.error)")
        let missing = NetworkClip.object(save.output)["missing_seconds"] as? Double ?? 0
        let seconds = { (d: Duration) in Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18 }
        #expect(missing > seconds(down) - 0.1 && missing < seconds(upperBound), "missing \(missing) s; the server was down \(down)")
        let frames = try NetworkClip.frames(box.path("gap.mp4")).map(\.time)
        let hole = zip(frames, frames.dropFirst()).map { $1 - $0 }.max() ?? 0
        #expect(abs(hole - NetworkClip.frame - missing) < 2 * NetworkClip.frame, "the clip's hole is \(hole) s, missing \(missing) s")
        // The camera's frames from 30 to the outage, then from its first keyframe on reconnecting
        // (a new client: the stand-in starts again at frame 0).
        let counters = try NetworkClip.counters(box.path("gap.mp4"))
        let breaks = NetworkClip.breaks(counters)
        #expect(counters.first == 30 && breaks.count == 1 && breaks.first?.1 == 0, "breaks \(breaks)")
        try NetworkClip.expectDecodes(box.path("gap.mp4"))

        // The session's log tells of the outage (it goes with the session at its stop).
        let log = try String(contentsOfFile: box.folder + "/run/rec/default/log", encoding: .utf8)
        #expect(log.contains("ended the stream") && log.contains("is back after"), "\(log)")
        #expect(try box.rec(["stop"]).status == 0)
        try NetworkClip.expectDecodes(box.path("rec.mkv"))
        #expect(NetworkClip.breaks(try NetworkClip.counters(box.path("rec.mkv"))).count == 1)
    }

    /// Frozen for 10 s: no reset, no packet. The read's deadline (5 s) notices it while the
    /// server is still frozen; the session reconnects once it is continued. Then, frozen again,
    /// `rec stop` ends the session at once, not at the read's deadline, with a finished file.
    @Test func aFrozenServerIsNoticedAndAStopDoesNotWaitForIt() throws {
        let server = try RTSPTestServer()
        let box = try Sandbox()
        try #require(try box.rec(["start", "--source", server.url(.h264), "-o", "rec.mp4"]).status == 0)
        try box.waitForFrames(60)
        let frozen = ContinuousClock.now
        server.pause()
        let noticed = try Self.status(box, wait: ["--wait-error", "--timeout", "9s"])
        let after = ContinuousClock.now - frozen
        #expect(noticed["wait"] as? String == "met" && NetworkClip.extra(noticed, "last_gap") == "sent nothing for 5 s",
                "not noticed within 9 s: \(noticed)")
        // The outage itself lasts 10 s: this is the camera's silence, not a wait for the session.
        Thread.sleep(forTimeInterval: max(0, 10 - Double(after.components.seconds)))
        server.resume()
        let before = noticed["frames"] as? Int ?? 0
        let back = try Self.status(box, wait: ["--wait-frames", "\(before + 60)", "--timeout", "30s"])
        #expect(NetworkClip.extra(back, "gaps") == "1" && back["last_error"] == nil, "\(back)")

        server.pause()
        defer { server.resume() }
        let stopping = ContinuousClock.now
        let stop = try box.rec(["stop", "--json"])
        let took = ContinuousClock.now - stopping
        #expect(stop.status == 0, "\(stop.error)")
        // Before the read's own deadline (5 s): the stop interrupted it.
        #expect(took < .seconds(4), "rec stop took \(took) while the server was frozen")
        let path = box.path("rec.mp4")
        try NetworkClip.expectDecodes(path)
        let counters = try NetworkClip.counters(path)
        let breaks = NetworkClip.breaks(counters)
        #expect(counters.first == 0 && breaks.count == 1 && breaks.first?.1 == 0 && counters.count >= before + 60, "breaks \(breaks)")
    }

    /// A camera whose first keyframe comes 6 s after connecting: the recording starts on it
    /// (frame 180) and decodes cleanly from its first frame.
    @Test func aLateKeyframeStartsTheRecording() throws {
        let server = try RTSPTestServer()
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/late.mp4"
        let run = try RecBinary.run(["record", "--source", server.url(.lateKeyframe), "--frames", "45", "-o", path])
        try #require(run.status == 0, "\(run.error)")
        try NetworkRecordTests.expectCameraFrames(path, count: 45, first: 180)
        #expect(try NetworkClip.frames(path).first?.key == true)
        #expect(try SoundProbe.audioDuration(in: path) > 1.4)
    }

    /// Camera timestamps that jump 20 s forward, or 5 s back, 4 s in (with sender reports, which
    /// libavformat's times follow a few seconds later, and without): one timeline, the frames
    /// keep coming at their pace, the sound too.
    @Test(arguments: [RTSPTestServer.Mount.jump, .jumpNoRTCP, .jumpBack])
    func aJumpInTheCamerasTimeKeepsOneTimeline(_ mount: RTSPTestServer.Mount) throws {
        let server = try RTSPTestServer()
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/jump.mp4"
        let run = try RecBinary.run(["record", "--source", server.url(mount), "--frames", "210", "-o", path, "--json"])
        try #require(run.status == 0, "\(run.error)")
        #expect(NetworkClip.object(run.output)["gaps"] as? Int == 0)
        let counters = try NetworkClip.counters(path)
        #expect(counters == Array(0..<210), "breaks \(NetworkClip.breaks(counters))")
        let times = try NetworkClip.frames(path).map(\.time)
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }
        // The new run starts at the jumped frame's arrival: one step may be longer, never a hole.
        #expect(steps.allSatisfy { $0 > 0 && $0 < 3 * NetworkClip.frame }, "steps from \(steps.min() ?? 0) to \(steps.max() ?? 0) s")
        try NetworkClip.expectDecodes(path)
        // All 7 s of the camera's sound. (Until the server's jump back kept the pace, it sent 5 s of
        // pictures in a burst after the jump, so the 210 frames were in before the sound was.)
        let sound = try SoundProbe.audioDuration(in: path)
        #expect(sound > 6.8, "\(sound) s of sound")
    }
}
