import Foundation
import Media
import Testing
import TestPool

/// The sound acceptance tests' measuring tools, checked on files the ffmpeg command line makes
/// with known sync and known cuts, so that a failure in those tests is the recorder's.
@Suite(.blocking, .serialized) struct SoundProbeTests {
    struct SyncCase: Sendable, CustomTestStringConvertible {
        var container: SoundProbe.Container
        var delay: SoundProbe.Delay?
        var expected: Double
        var testDescription: String { "\(container.rawValue), sound \(Int(expected * 1000)) ms late" }
    }

    static let syncCases = [
        SyncCase(container: .mp4, delay: nil, expected: 0),
        SyncCase(container: .webm, delay: nil, expected: 0),
        SyncCase(container: .mkv, delay: nil, expected: 0),
        SyncCase(container: .mp4, delay: .content(0.04), expected: 0.04),
        SyncCase(container: .webm, delay: .timestamps(0.04), expected: 0.04),
    ]

    /// Matroska's millisecond timestamps place sound to ±0.5 ms; MP4's are exact.
    static let syncTolerance = 0.001

    /// Times equal but for the rounding of timestamps times time bases.
    static func same(_ times: [Double], _ expected: [Double]) -> Bool {
        times.count == expected.count && zip(times, expected).allSatisfy { abs($0 - $1) < 1e-6 }
    }

    @Test(arguments: syncCases)
    func measuresTheSyncFFmpegMade(c: SyncCase) throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/sync.\(c.container.rawValue)"
        try SoundProbe.makeSyncFixture(path: path, seconds: 3, container: c.container, delay: c.delay)
        #expect(Self.same(try SoundProbe.flashes(in: path), [0, 1, 2]))
        let errors = try SoundProbe.syncErrors(in: path)
        #expect(Self.same(errors.map(\.second), [0, 1, 2]))
        for (second, error) in errors {
            #expect(abs(error - c.expected) <= Self.syncTolerance, "at \(second) s the sound is \(error * 1000) ms late")
        }
        let text = errors.map { String(format: "%.3f", $0.error * 1000) }.joined(separator: " ")
        print("\(c.testDescription): sound late by \(text) ms")
    }

    /// FFmpeg 5.1 muxes Opus in WebM 6.5 ms early (see `SoundProbe.encode`); the probe reads the
    /// file as written. Should this fail after a toolchain change, drop the fixtures' correction.
    @Test func ffmpegWebMPutsSoundEarly() throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/plain.webm"
        try SoundProbe.makeSyncFixture(path: path, seconds: 2, container: .webm, correctingOpus: false)
        for (second, error) in try SoundProbe.syncErrors(in: path) {
            #expect((-0.0075)...(-0.0060) ~= error, "at \(second) s the sound is \(error * 1000) ms late")
        }
        // A stream copy by the same libavformat makes the same shift again.
        let copy = "\(folder)/copy.webm"
        try SoundProbe.makeSyncFixture(path: path, seconds: 2, container: .webm)
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-c", "copy", copy])
        for (second, error) in try SoundProbe.syncErrors(in: copy) {
            #expect((-0.0075)...(-0.0060) ~= error, "copy: at \(second) s the sound is \(error * 1000) ms late")
        }
    }

    /// Zero is the first frame presented: an MP4 copied from mid-GOP keeps the frames before
    /// its start for decoding, and its edit list hides them (and the audio before it).
    @Test func timesFromTheFirstPresentedFrame() throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = "\(folder)/source.mp4", cut = "\(folder)/cut.mp4"
        try SoundProbe.makeSyncFixture(path: source, seconds: 4, container: .mp4)
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-ss", "1.5", "-i", source, "-c", "copy", cut])
        let packets = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pts_time",
                                               "-of", "csv=p=0", cut])
        let first = String(decoding: packets.stdout, as: UTF8.self).split(separator: "\n").compactMap { Double($0) }.min()
        try #require(first.map { $0 < -0.1 } == true, "the copy should start with frames to discard, not \(String(describing: first))")
        #expect(Self.same(try SoundProbe.flashes(in: cut), [0.5, 1.5]))
        #expect(try SoundProbe.syncErrors(in: cut).allSatisfy { abs($0.error) <= Self.syncTolerance })
        #expect(abs(try SoundProbe.videoDuration(in: cut) - 2.5) < 0.001)
    }

    /// The mark measured is inside the stand-in camera's and most of it.
    @Test(arguments: [(320, 240), (640, 360), (1280, 720), (1920, 1080)])
    func markCropLiesInTheTestPatternsMark(width: Int, height: Int) {
        let mark = TestPattern(width: width, height: height).secondMark
        let crop = SoundProbe.markCrop(width: width, height: height)
        #expect(crop.x >= mark.x && crop.y >= mark.y)
        #expect(crop.x + crop.width <= mark.x + mark.width && crop.y + crop.height <= mark.y + mark.height)
        #expect(crop.width * crop.height * 2 >= mark.width * mark.height)
    }

    @Test func clickNeedsHalfASecondOfQuiet() {
        var samples = [Float](repeating: 0.1, count: 48000 * 3)
        for start in [0, 20_000, 48_000, 48_000 + 23_999, 96_000 + 24_001] {
            samples[start] = 0.8
            samples[start + 1] = -0.8
        }
        // 20 000 and 71 999 follow a click by less than half a second.
        #expect(SoundProbe.onsets(in: samples, rate: 48000) == [0, 48_000, 120_001])
    }
}
