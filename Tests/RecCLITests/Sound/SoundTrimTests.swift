import Foundation
import Testing
import TestPool

/// `rec trim` of files with sound made by the ffmpeg CLI in each container's usual codecs (AAC,
/// Opus): the clip's sound is the source's samples of [from, to), placed where the source
/// placed them against its pictures, checked by decoding both with ffmpeg and finding the
/// clip's first and last samples in the source's (a broadband noise, so a lag is unambiguous).
@Suite(.blocking) struct SoundTrimTests {
    static let rate = 48_000

    struct Case: Sendable, CustomStringConvertible {
        var container: SoundProbe.Container
        /// How far, in samples, the head may sit from the exact sample. Matroska stamps blocks in
        /// milliseconds: the source's own sound is placed to ±0.5 ms, and a clip that cannot hide
        /// samples (AAC) places its first packet to ±0.5 ms again.
        var headTolerance: Int
        /// Where the clip's first sample may be presented: at 0, or (Matroska with AAC, which
        /// cannot hide samples) up to one packet later.
        var latestStart: Double
        var description: String { container.rawValue }
    }

    static let cases: [Case] = [
        Case(container: .mp4, headTolerance: 1, latestStart: 1.0 / 48_000),
        Case(container: .mov, headTolerance: 1, latestStart: 1.0 / 48_000),
        Case(container: .webm, headTolerance: 24, latestStart: 0.0006),
        Case(container: .mkv, headTolerance: 48, latestStart: 1024.0 / 48_000 + 0.0006),
    ]

    @Test(arguments: cases, [(1.5, 3.7), (2.0, 4.6)])
    func trimKeepsTheSamplesOfTheRange(c: Case, range: (Double, Double)) throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = folder + "/source.\(c.container.rawValue)", clip = folder + "/clip.\(c.container.rawValue)"
        try SoundProbe.makeSoundFixture(path: source, seconds: 6, container: c.container)
        let r = try RecBinary.run(["trim", source, "--from", "\(range.0)", "--to", "\(range.1)", "-o", clip])
        #expect(r.status == 0, "\(r.error)")
        let src = try SoundProbe.samples(in: source, rate: Self.rate)
        let out = try SoundProbe.samples(in: clip, rate: Self.rate)
        let (srcStart, clipStart) = (try SoundProbe.audioStart(in: source), try SoundProbe.audioStart(in: clip))
        // The clip's first frame is the source's at `from` (30 fps: both ends are on frames).
        let expected = Int(((range.0 + clipStart - srcStart) * Double(Self.rate)).rounded())
        let head = SampleAlignment.lag(of: out, in: src, around: expected, search: 2400)
        print("trim \(c) \(range): head lag \(head.lag - expected) samples (corr \(head.correlation)), clip audio starts at \(clipStart * 1000) ms")
        #expect(abs(head.lag - expected) <= c.headTolerance)
        #expect(head.correlation > 0.6)
        #expect(clipStart > -0.0001 && clipStart <= c.latestStart)
        // The tail: the same offset (no sample lost or doubled in between) …
        let tail = SampleAlignment.tailLag(of: out, in: src, around: head.lag, search: 2400)
        #expect(tail.lag == head.lag, "tail lag \(tail.lag), head lag \(head.lag)")
        // … and the sound ends with the pictures: to the sample where the container can say so,
        // within one AAC frame where FFmpeg's MP4 reader plays the last packet whole.
        let end = clipStart + Double(out.count) / Double(Self.rate)
        let length = range.1 - range.0
        switch c.container {
        case .webm: #expect(abs(end - length) <= 0.0006, "ends at \(end), pictures at \(length)")
        case .mp4, .mov: #expect(end >= length - 1.0 / 48_000 && end < length + 1024.0 / 48_000, "ends at \(end)")
        case .mkv: #expect(abs(end - length) <= 512.0 / 48_000 + 0.0006, "ends at \(end)")
        }
    }
}
