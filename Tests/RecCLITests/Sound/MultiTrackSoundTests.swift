import Foundation
import Testing
import TestPool

/// Streams are values, not "stream 1": a file made by the ffmpeg CLI with pictures and two sound
/// tracks (white noise of two seeds, so each track is told apart from the other by correlation)
/// is recorded (`--audio file` takes every sound track, `--pace off`), trimmed, and played as a
/// background session's camera and microphones, from whose ring clips are saved. Every output
/// has both tracks, each the source's own track, cut to the sample as one sound is today
/// (SoundTrimTests, SoundRingClipTests).
@Suite(.blocking) struct MultiTrackSoundTests {
    static let rate = 48_000
    static let seeds = [20240901, 4_000_017]

    /// 70 s at 160x120: long enough to outlast the session that plays it in real time.
    static func makeSource(_ path: String, seconds: Int = 70) throws {
        let noise = seeds.flatMap { seed in
            ["-f", "lavfi", "-i", "anoisesrc=color=white:seed=\(seed):amplitude=0.25:sample_rate=\(rate):duration=\(seconds)"]
        }
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30:duration=\(seconds)"]
                     + noise + ["-map", "0:v", "-map", "1:a", "-map", "2:a", "-ac", "1", "-c:v", "libx264", "-preset", "veryfast",
                                "-g", "30", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k", path])
    }

    /// Sound track `track` decoded, mono, at `rate`, from its first decoded sample.
    static func samples(in path: String, track: Int) throws -> [Float] {
        let out = try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-map", "0:a:\(track)", "-vn", "-sn", "-dn",
                                          "-ac", "1", "-ar", "\(rate)", "-c:a", "pcm_f32le", "-f", "f32le", "pipe:1"])
        return SoundProbe.floats(out.stdout)
    }

    static func soundTracks(in path: String) throws -> Int {
        let out = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries", "stream=index", "-of", "csv=p=0", path])
        return String(decoding: out.stdout, as: UTF8.self).split(separator: "\n").count
    }

    /// Every sound track of `clip` is track n of `source` from `from` seconds of the source's
    /// pictures on, head and tail within `tolerance` samples, and is not the other track.
    static func check(_ clip: String, against source: String, from: Double, tolerance: Int, label: String) throws {
        let tracks = try soundTracks(in: clip)
        #expect(tracks == 2, "\(label): \(tracks) sound tracks")
        let (srcStart, clipStart) = (try SoundProbe.audioStart(in: source), try SoundProbe.audioStart(in: clip))
        let expected = Int(((from + clipStart - srcStart) * Double(rate)).rounded())
        let src = try (0..<2).map { try samples(in: source, track: $0) }
        for track in 0..<2 {
            let out = try samples(in: clip, track: track)
            let head = SampleAlignment.lag(of: out, in: src[track], around: expected, search: 2400)
            let tail = SampleAlignment.tailLag(of: out, in: src[track], around: head.lag, search: 2400)
            let other = SampleAlignment.lag(of: out, in: src[1 - track], around: expected, search: 2400)
            print("\(label) track \(track): head \(head.lag - expected) samples (corr \(head.correlation)), tail \(tail.lag - expected), "
                  + "other track corr \(other.correlation), \(out.count) samples")
            #expect(abs(head.lag - expected) <= tolerance && abs(tail.lag - expected) <= tolerance, "\(label) track \(track)")
            #expect(head.correlation > 0.6, "\(label) track \(track)")
            #expect(other.correlation < 0.3, "\(label) track \(track) sounds like the other track")
        }
    }

    @Test func everySoundTrackIsRecordedKeptAndCut() throws {
        let box = try BackgroundSessionTests.Sandbox()
        let source = box.path("two-tracks.mp4")
        try Self.makeSource(source)

        // Recorded unpaced, then trimmed: both tracks, each its own, to the sample.
        let recording = box.path("recording.mp4")
        let recorded = try box.rec(["record", "--source", "file:" + source, "--audio", "file", "--pace", "off",
                                    "--duration", "10s", "-o", recording])
        try #require(recorded.status == 0, "rec record: \(recorded.error)")
        try Self.check(recording, against: source, from: 0, tolerance: 1, label: "recording")
        let trimmed = box.path("trimmed.mp4")
        let trim = try box.rec(["trim", recording, "--from", "3s", "--to", "6.5s", "-o", trimmed])
        try #require(trim.status == 0, "rec trim: \(trim.error)")
        try Self.check(trimmed, against: recording, from: 3, tolerance: 1, label: "trim")

        // A session playing the file in real time; the save waits for its end to be recorded.
        let started = try box.rec(["start", "--session", "tracks", "--source", "file:" + source, "--audio", "file", "--no-file"])
        try #require(started.status == 0, "rec start: \(started.error)")
        defer { _ = try? box.rec(["stop", "--session", "tracks"]) }
        let tracks = try #require(try box.status("tracks")["audio_tracks"] as? [[String: Any]])
        #expect(tracks.count == 2 && tracks.allSatisfy { ($0["device"] as? String)?.contains("two-tracks.mp4") == true }, "\(tracks)")
        for (ext, tolerance) in [("mp4", 1), ("mkv", 24)] {
            let clip = box.path("clip.\(ext)")
            let saved = try box.rec(["save", "--session", "tracks", "--from", "+0.5s", "--to", "+3s", "-o", clip, "--json"])
            try #require(saved.status == 0, "save .\(ext): \(saved.error)")
            let reply = try #require(try JSONSerialization.jsonObject(with: Data(saved.output.utf8)) as? [String: Any])
            let from = try #require((reply["saved"] as? [String: Any])?["from"] as? Double, "\(saved.output)")
            try Self.check(clip, against: source, from: from, tolerance: tolerance, label: "ring clip .\(ext)")
        }
    }

    /// `--audio` given twice records two inputs, each a track of its own; `none` with another, or
    /// the same input twice, is a usage error.
    @Test func audioGivenTwiceRecordsTwoTracks() throws {
        let box = try BackgroundSessionTests.Sandbox()
        let file = box.path("two.mkv")
        let r = try box.rec(["record", "--source", "test:160x120@30", "--audio", "test", "--audio", "test:skew=0.001",
                             "--pace", "off", "--duration", "2s", "-o", file])
        try #require(r.status == 0, "\(r.error)")
        #expect(try Self.soundTracks(in: file) == 2)
        for track in 0..<2 { #expect(try Self.samples(in: file, track: track).count >= 2 * Self.rate - 1024) }
        for bad in [["none", "test"], ["test", "test"]] {
            let refused = try box.rec(["record", "--source", "test", "--duration", "1s", "-o", box.path("x.mkv")]
                                      + bad.flatMap { ["--audio", $0] })
            #expect(refused.status == 64, "\(bad): \(refused.error)")
        }
    }
}
