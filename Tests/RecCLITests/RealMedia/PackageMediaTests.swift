import Foundation
import Testing
import TestPool

/// Video nobody here made: sample files Debian packages ship (pampi's tour, hollywood's
/// soundwave, janus-demos' EBU channel-identification clip with 5.1 AAC), fetched by
/// scripts/fetch-sample-media.sh. Each is cut with `rec trim` into MP4 and Matroska, and the
/// clip's frames, as ffmpeg presents them, are matched one by one to the source's frames of
/// exactly [from, to); its sound keeps the source's samples at the clip's time. (Real content
/// repeats frames, a slide or a test card held still: a clip frame matches when the source frame
/// it should be is among the closest, not only when it is the first of equals.)
@Suite(.blocking) struct PackageMediaTests {
    struct Case: Sendable, CustomStringConvertible {
        var file: String
        var from: Double
        var to: Double
        var output: String
        var description: String { "\(file) → .\(output)" }
    }

    static let folder = ".build/sample-media"
    /// Source frames on each side of a clip frame's place that it is compared with: 4 s at 24 fps.
    static let neighbourhood = 96
    static let cases: [Case] = ["mp4", "mkv"].flatMap { ext in [
        Case(file: "tour.mp4", from: 2.5, to: 7.25, output: ext),
        Case(file: "soundwave.mp4", from: 100, to: 112.5, output: ext),
        Case(file: "ChID-BLITS-EBU.mp4", from: 10, to: 20, output: ext),
    ] }

    /// Where the sample files are: the package root's .build (tests run from the package root).
    static func path(_ name: String) throws -> String {
        let path = FileManager.default.currentDirectoryPath + "/" + folder + "/" + name
        guard FileManager.default.fileExists(atPath: path) else {
            throw Tool.Failure("\(path) is missing; run scripts/fetch-sample-media.sh (scripts/test.sh does)")
        }
        return path
    }

    /// The presentation times (seconds from the first frame) of every frame ffmpeg decodes.
    static func frameTimes(_ path: String) throws -> [Double] {
        let out = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=best_effort_timestamp_time",
                                           "-of", "csv=p=0", path])
        let times = String(decoding: out.stdout, as: UTF8.self).split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        let zero = times.min() ?? 0
        return times.map { $0 - zero }
    }

    /// Every frame ffmpeg decodes, scaled to 128x96 (enough for a signature, and cheap).
    static func signatures(_ path: String) throws -> [Signature] {
        let out = try Tool.run("ffmpeg", ["-v", "error", "-i", path, "-an", "-sn", "-dn", "-fps_mode", "passthrough",
                                          "-vf", "scale=128:96,format=gray", "-f", "rawvideo", "-"])
        return Signature.frames(out.stdout, width: 128, height: 96)
    }

    @Test(arguments: cases)
    func packagedVideoIsCutExactly(c: Case) throws {
        let source = try Self.path(c.file)
        let dir = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let clip = "\(dir)/clip.\(c.output)"
        let result = try RecBinary.run(["trim", source, "--from", "\(c.from)s", "--to", "\(c.to)s", "-o", clip])
        try #require(result.status == 0, "\(result.error)")
        // Frames whose presentation time lies in [from, to), in display order.
        let times = try Self.frameTimes(source).sorted()
        let expected = times.indices.filter { times[$0] >= c.from - 1e-6 && times[$0] < c.to - 1e-6 }
        let all = try Self.signatures(source)
        let shown = try Self.signatures(clip)
        #expect(shown.count == expected.count, "the clip shows \(shown.count) frames, [from, to) holds \(expected.count)")
        // Each shown frame is the source's frame at its place: none of the source frames within
        // `neighbourhood` of that place (off by one, another GOP's, a repeat) matches it better.
        // Comparing against every frame of a 3,544-frame source took minutes and proved no more.
        let wrong = zip(shown, expected).enumerated().filter { _, pair in
            let near = max(0, pair.1 - Self.neighbourhood)..<min(all.count, pair.1 + Self.neighbourhood + 1)
            let best = near.map { pair.0.distance(to: all[$0]) }.min() ?? 0
            return pair.0.distance(to: all[pair.1]) > best + 1.0
        }.map(\.offset)
        #expect(wrong.isEmpty, "clip frames \(wrong.prefix(10)) are not the source's frames at their place")
        guard c.file.hasPrefix("ChID") else { return }
        // The 5.1 sound: all six channels, the source's samples at the clip's time.
        let channels = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=channels", "-of", "csv=p=0", clip])
        #expect(String(decoding: channels.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "6")
        let rate = 44_100
        let (src, out) = (try SoundProbe.samples(in: source, rate: rate), try SoundProbe.samples(in: clip, rate: rate))
        let (srcStart, clipStart) = (try SoundProbe.audioStart(in: source), try SoundProbe.audioStart(in: clip))
        let first = times[expected[0]]
        let lagAt = Int(((first + clipStart - srcStart) * Double(rate)).rounded())
        // This is HE-AAC (2048-sample frames with SBR): FFmpeg's decoder gives nothing for the
        // first frames of a cold start, so the clip's sound is heard from 31–62 ms (measured);
        // what it plays is in place. The lag is measured past that start.
        let skip = 8192
        let head = SampleAlignment.lag(of: Array(out.dropFirst(skip)), in: src, around: lagAt + skip, search: 2400)
        print("packaged \(c): sound \(head.lag - skip - lagAt) samples off (corr \(head.correlation)), heard from \(clipStart * 1000) ms")
        #expect(abs(head.lag - skip - lagAt) <= (c.output == "mkv" ? 66 : 1))
        #expect(clipStart >= 0 && clipStart < 0.07, "the clip's sound is heard from \(clipStart) s")
    }
}
