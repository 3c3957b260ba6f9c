import Foundation
import Testing
import TestPool

/// Clips saved from a live session's ring keep the samples of their range: a session plays an
/// ffmpeg-made file (pictures and a broadband noise) as its camera and microphone (`--audio
/// file`), and each clip's sound is found in the file's own sound, by decoding both with ffmpeg,
/// at the clip's session time.
@Suite(.blocking) struct SoundRingClipTests {
    static let rate = 48_000
    static let sourceSeconds = 90.0

    @Test(arguments: [("default", ["mp4", "mov", "mkv"]), ("small", ["webm"])])
    func ringClipsKeepTheSamplesOfTheirRange(preset: String, clips: [String]) throws {
        let box = try BackgroundSessionTests.Sandbox()
        let source = box.path("source.mp4")
        // The session plays the file in real time and ends with it: 90 s outlasts the saves and
        // their analysis on a loaded machine many times over (12 s ran out on an idle one).
        try SoundProbe.makeSoundFixture(path: source, seconds: Self.sourceSeconds, container: .mp4)
        let session = "ring-\(preset)"
        let started = try box.rec(["start", "--session", session, "--source", "file:" + source, "--audio", "file",
                                   "--preset", preset, "--no-file"])
        try #require(started.status == 0, "rec start failed: \(started.error)")
        defer { _ = try? box.rec(["stop", "--session", session]) }
        try box.waitForFrames(225, session: session)  // 7.5 s of the file: the range is in the ring
        let src = try SoundProbe.samples(in: source, rate: Self.rate)
        let srcStart = try SoundProbe.audioStart(in: source)
        for ext in clips {
            let clip = box.path("clip.\(ext)")
            let saved = try box.rec(["save", "--session", session, "--from", "3s", "--to", "6.5s", "-o", clip, "--force"])
            let log = (try? String(contentsOfFile: box.path("run/rec/\(session)/log"), encoding: .utf8)) ?? "no log"
            try #require(saved.status == 0, "save .\(ext): \(saved.error) \(saved.output) LOG: \(log)")
            let out = try SoundProbe.samples(in: clip, rate: Self.rate)
            let clipStart = try SoundProbe.audioStart(in: clip)
            let expected = Int(((3.0 + clipStart - srcStart) * Double(Self.rate)).rounded())
            let head = SampleAlignment.lag(of: out, in: src, around: expected, search: 2400)
            let tail = SampleAlignment.tailLag(of: out, in: src, around: head.lag, search: 2400)
            print("ring clip .\(ext): head \(head.lag - expected) samples (corr \(head.correlation)), tail \(tail.lag - expected), starts at \(clipStart * 1000) ms, \(out.count) samples")
            // The session re-encodes the sound (AAC or Opus), so the match is by correlation;
            // its timeline is exact, and so is the cut: within one sample, except that Matroska
            // with AAC keeps whole packets (±0.5 ms for its millisecond stamps).
            let tolerance = ext == "mkv" ? 24 : 1
            #expect(abs(head.lag - expected) <= tolerance && abs(tail.lag - expected) <= tolerance)
            #expect(head.correlation > 0.6)
            let end = clipStart + Double(out.count) / Double(Self.rate)
            switch ext {
            case "webm": #expect(abs(clipStart) <= 1.0 / 48_000 && abs(end - 3.5) <= 1.0 / 48_000, "webm: \(clipStart)…\(end)")
            case "mkv": #expect(clipStart >= 0 && clipStart < 1024.0 / 48_000 + 0.0006 && abs(end - 3.5) <= 512.0 / 48_000 + 0.0006)
            default: #expect(abs(clipStart) <= 1.0 / 48_000 && end >= 3.5 - 1.0 / 48_000 && end < 3.5 + 1024.0 / 48_000, "\(ext): \(clipStart)…\(end)")
            }
        }
    }

    /// `--keyframe` moves a clip's start back to its keyframe: its sound comes from there too
    /// (it used to start where the requested range did, up to a GOP late).
    @Test func keyframeClipsHaveSoundFromTheirFirstPicture() throws {
        let box = try BackgroundSessionTests.Sandbox()
        let started = try box.rec(["start", "--session", "kf", "--source", "test:320x240@30", "--audio", "test", "--no-file"])
        try #require(started.status == 0, "rec start failed: \(started.error)")
        defer { _ = try? box.rec(["stop", "--session", "kf"]) }
        try box.waitForFrames(200, session: "kf")
        let clip = box.path("kf.mp4")
        let saved = try box.rec(["save", "--session", "kf", "--keyframe", "--from", "3.5s", "--to", "5.5s", "-o", clip])
        try #require(saved.status == 0, "\(saved.error)")
        let start = try SoundProbe.audioStart(in: clip)
        let (audio, video) = (try SoundProbe.audioDuration(in: clip), try SoundProbe.videoDuration(in: clip))
        #expect(abs(start) <= 1.0 / 48_000, "the clip's sound starts at \(start) s")
        #expect(video > 2.2 && abs(audio - video) <= 1024.0 / 48_000 + 0.001, "audio \(audio) s, video \(video) s")
        let worst = try SoundProbe.syncErrors(in: clip).map { abs($0.error) }.max() ?? .infinity
        #expect(worst <= SoundRecordTests.bound)
    }
}
