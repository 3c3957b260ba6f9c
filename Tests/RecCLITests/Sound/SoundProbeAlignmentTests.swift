import Foundation
import Testing
import TestPool

/// `SampleAlignment` finds where a clip's sound was cut from: exactly in memory and through
/// lossless codecs, and through AAC and Opus to the sample (measured: exactly too).
@Suite(.blocking, .serialized) struct SoundProbeAlignmentTests {
    static func noise(count: Int, seed: UInt64) -> [Float] {
        var random = SplitMix(seed: seed)
        return (0..<count).map { _ in Float(random.next() >> 40) / Float(1 << 24) - 0.5 }
    }

    @Test func findsACutOfNoiseInMemory() {
        let source = Self.noise(count: 48_000, seed: 9)
        let clip = Array(source[12_345..<30_000])
        let head = SampleAlignment.lag(of: clip, in: source, around: 12_000, search: 1000)
        let tail = SampleAlignment.tailLag(of: clip, in: source, around: 12_900, search: 1000)
        #expect(head.lag == 12_345 && head.correlation > 0.999_999)
        #expect(tail.lag == 12_345 && tail.correlation > 0.999_999)
        // Out of reach, or not from this source at all: no match.
        #expect(SampleAlignment.lag(of: clip, in: source, around: 10_000, search: 1000).correlation < 0.1)
        let other = Self.noise(count: 8192, seed: 10)
        #expect(SampleAlignment.lag(of: other, in: source, around: 12_000, search: 1000).correlation < 0.1)
    }

    struct Cut: Sendable, CustomTestStringConvertible {
        var codec: [String]
        var ext: String
        var lossless: Bool
        var testDescription: String { "\(codec[1]) in .\(ext)" }
    }

    static let cuts = [
        Cut(codec: ["-c:a", "pcm_s16le"], ext: "mov", lossless: true),
        Cut(codec: ["-c:a", "flac"], ext: "mkv", lossless: true),
        Cut(codec: ["-c:a", "aac", "-b:a", "128k"], ext: "mp4", lossless: false),
        Cut(codec: ["-c:a", "libopus", "-b:a", "96k"], ext: "webm", lossless: false),
    ]

    /// Cuts the sound fixture's sound at sample `from` up to `to` with ffmpeg (`atrim`, which
    /// counts samples) and finds both ends again from the decoded clip.
    @Test(arguments: cuts)
    func findsAnFFmpegCut(c: Cut) throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sourcePath = "\(folder)/source.mp4"
        try SoundProbe.makeSoundFixture(path: sourcePath, seconds: 4, container: .mp4)
        let source = try SoundProbe.samples(in: sourcePath, rate: 48000)
        for (from, to) in [(52_345, 150_001), (100_003, 171_111)] {
            let path = "\(folder)/cut-\(from).\(c.ext)"
            try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-i", sourcePath, "-vn",
                                    "-af", "atrim=start_sample=\(from):end_sample=\(to),asetpts=PTS-STARTPTS"] + c.codec + [path])
            let clip = try SoundProbe.samples(in: path, rate: 48000)
            let head = SampleAlignment.lag(of: clip, in: source, around: from + 700, search: 2400)
            let tail = SampleAlignment.tailLag(of: clip, in: source, around: to - clip.count - 700, search: 2400)
            print("\(c.testDescription) cut at \(from)..<\(to): head lag \(head.lag) (r \(String(format: "%.3f", head.correlation))), "
                  + "tail lag \(tail.lag) (r \(String(format: "%.3f", tail.correlation))), \(clip.count) samples")
            if c.lossless {
                #expect(head.lag == from && tail.lag == from && clip.count == to - from)
                #expect(head.correlation > 0.9999 && tail.correlation > 0.9999)
            } else {
                #expect(abs(head.lag - from) <= 1 && abs(tail.lag - from) <= 1)
                #expect(head.correlation > 0.5 && tail.correlation > 0.5)
                // FFmpeg 5.1 trims Opus's end padding (DiscardPadding) but not AAC's in MP4:
                // that decodes to whole 1024-sample frames.
                #expect((to - from)..<(to - from + 1024) ~= clip.count)
            }
        }
    }

    /// The sound fixtures are what they say in every container, picture and sound equally long.
    @Test(arguments: SoundProbe.Container.allCases)
    func soundFixtureHasItsContainersCodecs(container: SoundProbe.Container) throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/fixture.\(container.rawValue)"
        try SoundProbe.makeSoundFixture(path: path, seconds: 2, container: container)
        let probe = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", path])
        let codecs = String(decoding: probe.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(codecs == (container == .webm ? ["vp9", "opus"] : ["h264", "aac"]))
        let (video, audio, start) = (try SoundProbe.videoDuration(in: path), try SoundProbe.audioDuration(in: path),
                                     try SoundProbe.audioStart(in: path))
        print("\(container.rawValue): video \(video) s, audio \(audio) s from \(start) s")
        #expect(abs(video - 2) < 0.001)
        #expect(abs(start + audio - 2) < 1024.0 / 48000)
    }
}
