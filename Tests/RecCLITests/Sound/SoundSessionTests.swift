import Capture
import Foundation
import Media
import RecCore
import Session
import Testing
import TrimCLI
import TestPool

/// A ten-minute session with the stand-in camera and a stand-in microphone whose clock runs
/// 0.2 % fast: the clips saved from the ring at its start, middle and end, and the recording
/// file, keep every click within 10 ms of its flash, and the session reports the drift.
///
/// The default run takes the ten minutes of session time unpaced (`--pace off`: the sound is
/// held to the pictures, so the drift model sees the same timeline as in real time) through the
/// session host, in about a minute; `scripts/test.sh --soak` also runs the same session in real
/// time through `rec start`, which takes ten minutes of wall clock.
@Suite(.blocking) struct SoundSessionTests {
    static let seconds = 600.0
    static let clips = [("start", 1.0, 21.0), ("middle", 290.0, 310.0), ("end", 575.0, 595.0)]

    /// The session in-process, unpaced: it ends when its ten minutes are recorded, and its ring
    /// (which holds all of them) answers the saves.
    @Test func tenMinutesOfSessionTimeKeepSoundInSyncInFileAndClips() throws {
        FFmpegLog.quiet()
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let choice = try EncodingChoice.resolve(preset: "default", environment: [:], hardware: .machine)
        let file = folder + "/session.mp4"
        var recorder = RecorderConfiguration(encoder: choice.settings, keyframeSeconds: choice.keyframeSeconds,
                                             output: .init(path: file, container: .mp4), pace: .off)
        recorder.audio = choice.audio
        recorder.durationLimit = Timestamp(seconds: Self.seconds + 2)
        let ring = RingLimits(maxDuration: Timestamp(seconds: 660), maxBytes: 1 << 30)
        let host = SessionHost(configuration: SessionConfiguration(name: "sound", recorder: recorder, ring: ring),
                               source: TestPatternSource(width: 320, height: 240, fps: 30),
                               sounds: [TestToneSource(skew: 0.002)])
        try host.recorder.waitUntilStarted()
        host.recorder.waitUntilFinished()

        let audio = try #require(host.status().audio, "status has no sound")
        let drift = try #require(audio.driftPPM, "status has no drift")
        print("sound session (unpaced): status drift \(drift) ppm, gaps \(audio.gaps), overruns \(audio.overruns)")
        #expect(abs(drift - 2000) < 100)
        #expect(audio.gaps == 0)
        for (name, from, to) in Self.clips {
            let clip = folder + "/clip-\(name).mp4"
            _ = try host.save(SaveRequest(from: .seconds(from), to: .seconds(to), output: clip))
            try Self.expectInSync(clip: clip, name: name)
        }
        _ = host.stop()
        try Self.expectInSync(file: file)
    }

    /// The same session through `rec start`, in real time: ten minutes of wall clock. Opt-in
    /// (`scripts/test.sh --soak`, which sets REC_SOAK=1).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["REC_SOAK"] == "1", "a real-time soak: scripts/test.sh --soak"))
    func realTimeSessionKeepsSoundInSyncInFileAndClips() throws {
        let box = try BackgroundSessionTests.Sandbox()
        let session = "sound"
        let started = try box.rec(["start", "--session", session, "--source", "test:320x240@30", "--audio", "test:skew=0.002",
                                   "--buffer", "11m", "-o", box.path("session.mp4")])
        try #require(started.status == 0, "rec start failed: \(started.error)")
        // The last clip ends at 595 s; the save waits for the ring to reach it.
        for (name, from, to) in Self.clips {
            let clip = box.path("clip-\(name).mp4")
            let saved = try box.rec(["save", "--session", session, "--from", "\(from)s", "--to", "\(to)s", "-o", clip])
            #expect(saved.status == 0, "save \(name): \(saved.error)")
            try Self.expectInSync(clip: clip, name: name)
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
        let stopped = try box.rec(["stop", "--session", session])
        #expect(stopped.status == 0, "\(stopped.error)")
        try Self.expectInSync(file: box.path("session.mp4"))
    }

    static func expectInSync(clip: String, name: String) throws {
        let errors = try SoundProbe.syncErrors(in: clip)
        let worst = errors.map { abs($0.error) }.max() ?? .infinity
        print("sound session clip \(name): \(errors.count) clicks, worst \(worst * 1000) ms")
        #expect(errors.count >= 19, "clip \(name)")
        #expect(worst <= SoundRecordTests.bound, "clip \(name)")
        let (a, v) = (try SoundProbe.audioDuration(in: clip), try SoundProbe.videoDuration(in: clip))
        #expect(abs(a - v) <= 1024.0 / 48_000 + 0.001, "clip \(name): audio \(a) s, video \(v) s")
    }

    static func expectInSync(file: String) throws {
        let errors = try SoundProbe.syncErrors(in: file)
        #expect(errors.count >= 595, "found \(errors.count) click/flash pairs in 600 s")
        let w = SoundRecordTests.worst(errors, length: seconds)
        print("sound session file: worst start \(w.start * 1000) ms, middle \(w.middle * 1000) ms, end \(w.end * 1000) ms")
        #expect(w.start <= SoundRecordTests.bound && w.middle <= SoundRecordTests.bound && w.end <= SoundRecordTests.bound)
        let (a, v) = (try SoundProbe.audioDuration(in: file), try SoundProbe.videoDuration(in: file))
        #expect(abs(a - v) <= 1024.0 / 48_000 + 0.001, "file: audio \(a) s, video \(v) s")
    }
}
