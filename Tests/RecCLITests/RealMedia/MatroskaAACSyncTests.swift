import Foundation
import Testing
import TestPool

/// Issue 39: Matroska cuts of AAC sources had their sound off against their pictures (18.7 ms
/// reported for Big Buck Bunny 3.8–5.28 s) and Firefox refused them (MediaError 3), where the MP4
/// and MOV cuts were in sync. ffmpeg, which times each decoded frame by its block, found them in
/// sync; players that time sound by counting samples from the first block (Chromium's
/// AudioDiscardHelper) did not: the first block was a packet kept only to prime the decoder, its
/// sound discarded whole, so the next packet's sound played at its time, early by the gap between
/// them (measured here: 2.7–21.7 ms). Sources from real encoders (ffmpeg's AAC at 44.1 and 48 kHz
/// in MP4, with its priming in an edit list; the EBU's 5.1 HE-AAC test clip), cut mid-GOP and
/// mid-AAC-frame: the clip's sound at each picture time is the source's sound at that picture's
/// time, found sample by sample in the source, with the clip's samples timed both ways.
@Suite(.blocking, .serialized) struct MatroskaAACSyncTests {
    struct Source: Sendable, CustomTestStringConvertible {
        var made: RealSource?
        /// A sample file from Debian packages (`PackageMediaTests.path`).
        var file: String?
        /// LC-AAC without perceptual noise substitution (whose noise the decoder draws afresh)
        /// decodes the source's samples exactly once the decoder has one packet behind it;
        /// HE-AAC's SBR settles later, and only where its sound lies is compared.
        var exact: Bool
        /// Samples of the clip's sound passed over before comparing: its first packet decodes
        /// cold (as after a seek); HE-AAC's SBR takes a few packets more.
        var settle: Int
        var testDescription: String { made?.name ?? file ?? "" }

        func path() throws -> String { try made?.path() ?? PackageMediaTests.path(file ?? "") }
    }

    /// 8 s at 24 fps with a keyframe every 2 s and pink noise (broadband: a stretch of it matches
    /// the source at one lag only), AAC at `rate`.
    static func made(rate: Int) -> Source {
        let video = RealSource(name: "x264-aac-\(rate)-24fps-8s.mp4", encode: [
            "-c:v", "libx264", "-preset", "veryfast", "-g", "48", "-pix_fmt", "yuv420p",
            "-ac", "2", "-c:a", "aac", "-aac_pns", "0", "-b:a", "160k"], fps: (24, 1), seconds: 8,
            sound: "anoisesrc=color=pink:seed=7:amplitude=0.3:sample_rate=\(rate)")
        return Source(made: video, exact: true, settle: 2048)
    }

    /// Speech with pauses: compared 0.75 s in, where a voice speaks (1.75 s into the file).
    static let ebu = Source(file: "ChID-BLITS-EBU.mp4", exact: false, settle: 33_075)

    struct Case: Sendable, CustomTestStringConvertible {
        var source: Source
        var from: Double
        var to: Double
        var output: String
        var testDescription: String { "\(source.testDescription) \(from)–\(to) s → .\(output)" }
    }

    static let cases: [Case] = [made(rate: 44_100), made(rate: 48_000)].flatMap { source in
        [(3.8, 5.28), (1.0, 3.6)].flatMap { range in
            ["mkv", "mp4", "mov"].map { Case(source: source, from: range.0, to: range.1, output: $0) }
        }
    } + [Case(source: ebu, from: 1.0, to: 3.6, output: "mkv")]

    @Test(arguments: cases)
    func soundIsTheSourcesAtThePictureTimes(c: Case) throws {
        let source = try c.source.path()
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clip = "\(folder)/clip.\(c.output)"
        let result = try RecBinary.run(["trim", source, "--from", "\(c.from)", "--to", "\(c.to)", "-o", clip])
        try #require(result.status == 0, "\(result.error)")
        // The source's time of the clip's first picture: its first frame at or after `from`.
        let pictures = try PackageMediaTests.frameTimes(source).sorted()
        let firstPicture = try #require(pictures.first { $0 >= c.from - 1e-6 })
        let (src, out) = (try SoundProbe.decodedAudio(in: source), try SoundProbe.decodedAudio(in: clip))
        let srcZero = try SoundProbe.firstVideoTime(in: source) ?? 0, clipZero = try SoundProbe.firstVideoTime(in: clip) ?? 0
        let rate = Double(out.rate)
        // Matroska stamps blocks in whole milliseconds (FFmpeg 5.1 writes no other scale), so its
        // sound sits within half a millisecond of its place; an edit list places it to the sample.
        let tolerance = c.output == "mkv" ? Int((rate / 2000).rounded(.up)) + 1 : 1
        let firstBlock = max(0, try Self.firstSoundPacketTime(clip))
        let timings: [(String, (Int) -> Double)] = [
            ("ffmpeg (each frame at its block's time)", { out.time(ofSample: $0) - clipZero }),
            ("counting samples from the first block", { firstBlock + Double($0) / rate - clipZero }),
        ]
        let start = c.source.settle
        try #require(out.samples.count >= start + SampleAlignment.window, "the clip has \(out.samples.count) samples of sound")
        let part = Array(out.samples[start..<(start + SampleAlignment.window)])
        for (name, time) in timings {
            // The source's sample presented with the same picture as the clip's sample `start`.
            let sourceTime = time(start) + firstPicture + srcZero
            let expected = Int(((sourceTime - src.time(ofSample: 0)) * rate).rounded())
            let found = SampleAlignment.lag(of: part, in: src.samples, around: expected, search: 2400)
            let early = found.lag - expected
            print("\(c.testDescription), \(name): sound \(String(format: "%.3f", Double(early) / rate * 1000)) ms early "
                  + "(\(early) samples, correlation \(String(format: "%.4f", found.correlation)))")
            #expect(abs(early) <= tolerance, "\(name): the sound plays \(early) samples (\(Double(early) / rate * 1000) ms) early")
            #expect(found.correlation > 0.99, "\(name): correlation \(found.correlation)")
            guard c.source.exact, found.lag >= 0, found.lag + part.count <= src.samples.count else { continue }
            let error = part.indices.map { abs(part[$0] - src.samples[found.lag + $0]) }.max() ?? 1
            #expect(error < 1e-4, "\(name): the clip's samples differ from the source's by up to \(error)")
        }
        guard c.output == "mkv" else { return }
        // Firefox refused these files: DiscardPadding on the priming block, and on a last block
        // whose bytes, read as an Opus packet, last less than it.
        let length = try SoundProbe.videoDuration(in: clip)
        let firefox = try Players.firefox(clip, times: [0])
        #expect(abs(firefox.duration - length) < 0.03, "Firefox: \(firefox.duration) s for \(length) s of pictures")
    }

    /// The presentation time of a file's first sound packet, as its container states it.
    static func firstSoundPacketTime(_ path: String) throws -> Double {
        let out = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-read_intervals", "%+#1",
                                           "-show_entries", "packet=pts_time", "-of", "csv=p=0", path])
        let field = String(decoding: out.stdout, as: UTF8.self).split(whereSeparator: { $0 == "," || $0.isNewline }).first
        return try #require(field.flatMap { Double($0) }, "no sound packet in \(path)")
    }
}
