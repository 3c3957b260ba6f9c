import Foundation
import Testing
import TestPool

/// Cuts on inputs and players the other real-media tests do not use, where defects were seen
/// (issue 20, item 10): a splice that ends at a B-frame source's last frame in Chromium,
/// `--keyframe` cuts in GStreamer's playbin and MediaInfo, and AAC sound at a cut's ends.
@Suite(.blocking, .serialized) struct PlayerEdgeTests {
    /// 8 s at 640 × 360, 25 fps, x264 with up to 3 B-frames and a 2 s GOP, no sound (a sound
    /// track's own length hid the short video track from Chromium).
    static let bframes = RealSource(name: "x264-bf3-25fps-8s.mp4", encode: ["-c:v", "libx264", "-bf", "3", "-g", "50", "-an"],
                                    fps: (25, 1), width: 640, height: 360, seconds: 8)
    /// 30 fps with a keyframe every 22 frames: a `--keyframe` cut of 1.5–2.9 s starts at frame 44.
    static let gop22 = RealSource(name: "x264-g22-30fps.mp4", encode: ["-c:v", "libx264", "-g", "22", "-c:a", "aac"], fps: (30, 1))
    /// x265's open GOPs in MP4: a cut leaves the copied keyframe's leading pictures out.
    static let x265 = RealSource(name: "x265-opengop-aac.mp4", encode: [
        "-c:v", "libx265", "-x265-params", "keyint=30:log-level=error", "-c:a", "aac"], fps: (30, 1))

    /// Ending on the source's last frame, nothing is re-encoded at the tail: the copied frames
    /// decode 2 frames behind their pts, and the re-encoded head decoded at its pts, so the sample
    /// table said 5.40 s and Chromium stopped 2 frames short (frame 197 of 199).
    @Test func spliceEndingAtTheLastFrameInChromium() throws {
        let s = Self.bframes
        let clip = try RealMediaCutTests.cut(s, ext: "mp4", from: 2.5, to: 8.0)
        let expected = s.frames(from: 2.5, to: 8.0)
        let source = try s.signatures()
        let length = Double(expected.count) * s.frameDuration
        let times = [0, length - s.frameDuration / 2]
        // As in RealMediaCutTests: a clip must show the right frames in one of two tries.
        var browser = try Players.chromium(clip, times: times)
        if Signature.match(browser.frames, in: source) != [expected.first!, expected.last!] {
            browser = try Players.chromium(clip, times: times)
        }
        #expect(Signature.match(browser.frames, in: source) == [expected.first!, expected.last!], "Chromium")
        #expect(abs(browser.duration - length) < 0.03, "Chromium: \(browser.duration) s for \(length) s of frames")
    }

    /// A `--keyframe` cut re-encodes its last frame: decoded at its pts, it left a gap in the
    /// decode times that GStreamer and MediaInfo counted as frames (41 of 43, 55 of 57); x265's
    /// left-out leading pictures left another (MediaInfo: 53 of 57).
    @Test(arguments: [gop22, x265])
    func keyframeCutInGStreamerAndMediaInfo(s: RealSource) throws {
        let clip = try RealMediaCutTests.cut(s, ext: "mp4", from: 1.5, to: 2.9, extra: ["--keyframe"])
        let source = try s.signatures()
        let ffmpeg = Signature.match(try Players.ffmpeg(clip, width: s.width, height: s.height), in: source)
        let end = s.frames(from: 1.5, to: 2.9).upperBound
        try #require(!ffmpeg.isEmpty)
        #expect(ffmpeg == Array(ffmpeg[0]..<end), "ffmpeg: \(ffmpeg)")
        let gstreamer = Signature.match(try Players.gstreamer(clip, width: s.width, height: s.height), in: source)
        #expect(gstreamer == ffmpeg, "GStreamer: \(gstreamer.count) frames, ending at \(gstreamer.last ?? -1)")
        let info = try Tool.run("mediainfo", ["--Inform=Video;%FrameCount%", clip])
        let counted = Int(String(decoding: info.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(counted == ffmpeg.count, "MediaInfo counts \(counted ?? -1) frames of \(ffmpeg.count)")
    }

    /// Matroska cannot hide AAC's overlap (FFmpeg 5.1 writes CodecDelay for Opus only). A packet
    /// kept before the first to prime the decoder, its sound discarded whole by DiscardPadding, and
    /// the last packet's surplus discarded too, made ffmpeg decode the first packet as the source
    /// does and end the sound with the pictures; but Chromium, counting samples from the first
    /// block, played the sound early by the gap after it, Firefox refused the file, and GStreamer
    /// 1.22, which ignores DiscardPadding, played 34–42 ms more than the pictures
    /// (MatroskaAACSyncTests). Now whole packets at their true times: the first decodes cold, as
    /// after a seek; from the second on the sound is the source's sample for sample, and ffmpeg,
    /// mpv and GStreamer all end it at the same packet boundary, within half a packet of the
    /// pictures' end.
    @Test(arguments: [(2.0, 3.5), (1.5, 3.7)])
    func matroskaAACWholePacketsInEveryPlayer(range: (Double, Double)) throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (source, clip) = (folder + "/source.mkv", folder + "/clip.mkv")
        try SoundProbe.makeSyncFixture(path: source, seconds: 6, container: .mkv)
        let r = try RecBinary.run(["trim", source, "--from", "\(range.0)", "--to", "\(range.1)", "-o", clip])
        try #require(r.status == 0, "\(r.error)")
        let rate = SoundTrimTests.rate
        let src = try SoundProbe.samples(in: source, rate: rate), out = try SoundProbe.samples(in: clip, rate: rate)
        let (srcStart, clipStart) = (try SoundProbe.audioStart(in: source), try SoundProbe.audioStart(in: clip))
        let expected = Int(((range.0 + clipStart - srcStart) * Double(rate)).rounded())
        let lag = SampleAlignment.tailLag(of: out, in: src, around: expected, search: 2400).lag
        try #require(out.count > 2048 && lag >= 0 && lag + 2048 <= src.count)
        // From the second packet on, the source's sound sample for sample.
        let error = (1024..<2048).map { abs(out[$0] - src[lag + $0]) }.max() ?? 1
        #expect(error < 0.01, "the clip's second packet differs from the source's by up to \(error)")
        #expect(clipStart >= 0 && clipStart < 1024.0 / Double(rate) + 0.001, "the sound starts at \(clipStart) s")
        let length = range.1 - range.0, tolerance = 512.0 / Double(rate) + 0.001
        for (player, samples) in [("ffmpeg", out.count), ("mpv", try Players.mpvSound(clip)), ("GStreamer", try Players.gstreamerSound(clip))] {
            let end = clipStart + Double(samples) / Double(rate)
            #expect(abs(end - length) <= tolerance, "\(player): sound ends at \(end) s, pictures at \(length) s")
            #expect(abs(samples - out.count) <= rate / 1000, "\(player): \(samples) samples, ffmpeg \(out.count)")
        }
    }

    /// An MP4 clip's sound ends where the pictures do by its edit list (to the sample: see
    /// SoundTrimTests); FFmpeg 5.1's MP4 reader does not apply an edit list's end, so ffmpeg and
    /// mpv play the last AAC packet whole, up to 1023 samples (21 ms) past the pictures.
    @Test func mp4SoundEndInFFmpegBasedPlayers() throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (source, clip) = (folder + "/source.mp4", folder + "/clip.mp4")
        try SoundProbe.makeSyncFixture(path: source, seconds: 6, container: .mp4)
        let r = try RecBinary.run(["trim", source, "--from", "2", "--to", "3.5", "-o", clip])
        try #require(r.status == 0, "\(r.error)")
        let rate = SoundTrimTests.rate
        let played = try SoundProbe.samples(in: clip, rate: rate).count
        let excess = played - Int(1.5 * Double(rate))
        #expect(excess >= 0 && excess < 1024, "ffmpeg decodes \(excess) samples past the pictures")
        withKnownIssue("FFmpeg 5.1's mov demuxer ignores the end of an edit list (ffmpeg 5.1, mpv 0.35)") {
            #expect(excess == 0, "ffmpeg decodes \(excess) samples past the pictures")
        }
    }
}

extension Players {
    /// How many samples (mono, 48 kHz) GStreamer's playbin plays of a file's sound.
    static func gstreamerSound(_ path: String) throws -> Int {
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("rec-gst-\(UUID()).f32").path
        defer { try? FileManager.default.removeItem(atPath: raw) }
        try Tool.run("gst-launch-1.0", ["-q", "playbin", "uri=file://\(path)", "video-sink=fakesink", "text-sink=fakesink",
                                        "audio-sink=audioconvert ! audioresample ! audio/x-raw,format=F32LE,channels=1,rate=48000 "
                                        + "! filesink location=\(raw) sync=false"])
        let size = (try FileManager.default.attributesOfItem(atPath: raw)[.size] as? Int) ?? 0
        return size / 4
    }

    /// How many samples (mono, 48 kHz) mpv plays of a file's sound (`--ao=pcm`, no configuration).
    static func mpvSound(_ path: String) throws -> Int {
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("rec-mpv-\(UUID()).wav").path
        defer { try? FileManager.default.removeItem(atPath: wav) }
        try Tool.run("mpv", ["--no-config", "--really-quiet", "--vo=null", "--ao=pcm", "--ao-pcm-file=\(wav)", "--audio-format=float",
                             "--audio-channels=mono", "--audio-samplerate=48000", path])
        let data = try Data(contentsOf: URL(fileURLWithPath: wav))
        guard let header = data.range(of: Data("data".utf8)) else { throw Tool.Failure("mpv wrote no WAV data to \(wav)") }
        return (data.count - header.upperBound - 4) / 4
    }
}
