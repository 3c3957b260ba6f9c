import Foundation
import Testing

/// A real ten-minute background session with the stand-in camera and a stand-in microphone whose
/// clock runs 0.2 % fast: the clips saved from the ring at its start, middle and end, and the
/// recording file, keep every click within 10 ms of its flash. Runs in real time (ten minutes of
/// wall clock, a few percent of one core at 320x240).
@Suite struct SoundSessionTests {
    static let minutes = 10.0

    @Test func tenMinuteSessionKeepsSoundInSyncInFileAndClips() throws {
        let box = try BackgroundSessionTests.Sandbox()
        let session = "sound"
        let started = try box.rec(["start", "--session", session, "--source", "test:320x240@30", "--audio", "test:skew=0.002",
                                   "--buffer", "11m", "-o", box.path("session.mp4")])
        try #require(started.status == 0, "rec start failed: \(started.error)")
        try box.waitForFrames(30, session: session)
        let seconds = Self.minutes * 60
        // Wait (bounded) for ten minutes of session time.
        let deadline = Date().addingTimeInterval(seconds + 120)
        while Date() < deadline {
            if let uptime = try box.status(session)["uptime"] as? Double, uptime >= seconds + 2 { break }
            sleep(5)
        }
        let status = try box.status(session)
        let audio = try #require(status["audio"] as? [String: Any], "status has no audio: \(status)")
        let drift = try #require(audio["drift_ppm"] as? Double)
        print("sound session: status drift \(drift) ppm, peak \(audio["peak_dbfs"] ?? "none") dBFS, gaps \(audio["gaps"] ?? "?")")
        #expect(abs(drift - 2000) < 100)
        #expect((audio["gaps"] as? Int) == 0)
        #expect(audio["peak_dbfs"] as? Double != nil)
        let text = try box.rec(["status", "--session", session]).output
        #expect(text.contains("audio") && text.contains("dBFS"), "\(text)")

        for (name, from, to) in [("start", "0:01", "0:21"), ("middle", "4:50", "5:10"), ("end", "9:35", "9:55")] {
            let clip = box.path("clip-\(name).mp4")
            let saved = try box.rec(["save", "--session", session, "--from", from, "--to", to, "-o", clip])
            #expect(saved.status == 0, "save \(name): \(saved.error)")
            let errors = try SoundProbe.syncErrors(in: clip)
            let worst = errors.map { abs($0.error) }.max() ?? .infinity
            print("sound session clip \(name): \(errors.count) clicks, worst \(worst * 1000) ms")
            #expect(errors.count >= 19)
            #expect(worst <= SoundRecordTests.bound)
            let (a, v) = (try SoundProbe.audioDuration(in: clip), try SoundProbe.videoDuration(in: clip))
            #expect(abs(a - v) <= 1024.0 / 48_000 + 0.001, "clip \(name): audio \(a) s, video \(v) s")
        }
        let stopped = try box.rec(["stop", "--session", session])
        #expect(stopped.status == 0, "\(stopped.error)")
        let errors = try SoundProbe.syncErrors(in: box.path("session.mp4"))
        let w = SoundRecordTests.worst(errors, length: seconds)
        print("sound session file: worst start \(w.start * 1000) ms, middle \(w.middle * 1000) ms, end \(w.end * 1000) ms")
        #expect(w.start <= SoundRecordTests.bound && w.middle <= SoundRecordTests.bound && w.end <= SoundRecordTests.bound)
    }
}
