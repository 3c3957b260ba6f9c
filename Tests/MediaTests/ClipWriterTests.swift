import Foundation
import Media
import RecCore
import Testing
import TestPool

/// Cuts real files and decodes the clips, asserting the exact set of frames presented.
@Suite(.blocking) struct ClipWriterTests {
    /// Cuts `[from, to)` (µs on the file timeline) of `input` into `ext` and returns the stamps
    /// presented and the clip's frame times (seconds).
    static func cut(_ input: String, from: Int64, to: Int64, ext: String, keyframe: Bool = false,
                    reencode: EncoderSettings? = nil) throws -> (stamps: [Int?], times: [Double], report: ClipWriter.Report) {
        let reader = try FileClipReader(path: input)
        let read = try reader.read(from: .microseconds(from), to: .microseconds(to))
        let container = ContainerFormat(path: "x.\(ext)")!
        let plan = try CutPlanner.plan(packets: read.source.timings, timeBase: read.source.timeBase, from: read.from, to: read.to,
                                       mode: keyframe ? .keyframe : .exact,
                                       strategy: container.hasEditLists ? .editList : .spliceReencode)
        let output = Fixtures.temporary(ext)
        defer { try? FileManager.default.removeItem(atPath: output) }
        let report = try ClipWriter.write(read.source, plan: plan, to: output, container: container, reencode: reencode)
        let frames = try FrameReader.read(path: output).frames
        return (frames.map(\.stamp), frames.map { $0.time.seconds }, report)
    }

    /// Frame boundaries at 30 fps: halfway between frames a-1 and a.
    static func at(_ frame: Int) -> Int64 { max(0, Int64(frame) * 1_000_000 / 30 - 16_000) }

    struct Case: Sendable, CustomStringConvertible {
        var from: Int, to: Int
        var name: String
        var description: String { "\(name) [\(from), \(to))" }
    }

    // Keyframes every 30 frames: 0, 30, 60, 90.
    static let cases: [Case] = [
        Case(from: 30, to: 60, name: "keyframe to keyframe"),
        Case(from: 31, to: 61, name: "one after a keyframe, one past the next"),
        Case(from: 29, to: 59, name: "one before a keyframe, one before the next"),
        Case(from: 45, to: 46, name: "one frame"),
        Case(from: 0, to: 120, name: "whole file"),
        Case(from: 7, to: 101, name: "across several GOPs"),
    ]

    @Test(arguments: cases, ["mp4", "mkv"])
    func exactCutWithBFrames(c: Case, ext: String) throws {
        let input = Fixtures.temporary(ext)
        defer { try? FileManager.default.removeItem(atPath: input) }
        try Fixtures.encode(times: Fixtures.cfr(120), to: input, bFrames: 3)
        let result = try Self.cut(input, from: Self.at(c.from), to: c.to == 120 ? 4_000_000 : Self.at(c.to), ext: ext)
        #expect(result.stamps == (c.from..<c.to).map { Optional($0) })
        // The clip starts at 0 and keeps the frame durations.
        #expect(abs(result.times.first ?? -1) < 0.001)
        let gaps = zip(result.times, result.times.dropFirst()).map { $1 - $0 }
        #expect(gaps.allSatisfy { abs($0 - 1.0 / 30) < 0.0015 })
    }

    @Test(arguments: cases, ["mp4", "mkv"])
    func exactCutWithoutBFrames(c: Case, ext: String) throws {
        let input = Fixtures.temporary(ext)
        defer { try? FileManager.default.removeItem(atPath: input) }
        try Fixtures.encode(times: Fixtures.cfr(120), to: input, bFrames: 0)
        let result = try Self.cut(input, from: Self.at(c.from), to: c.to == 120 ? 4_000_000 : Self.at(c.to), ext: ext)
        #expect(result.stamps == (c.from..<c.to).map { Optional($0) })
    }

    @Test func mp4ClipEndsExactlyAtItsLastFrame() throws {
        let input = Fixtures.temporary("mp4")
        defer { try? FileManager.default.removeItem(atPath: input) }
        try Fixtures.encode(times: Fixtures.cfr(120), to: input, bFrames: 3)
        let reader = try FileClipReader(path: input)
        let read = try reader.read(from: .microseconds(Self.at(35)), to: .microseconds(Self.at(50)))
        let plan = try CutPlanner.plan(packets: read.source.timings, timeBase: read.source.timeBase, from: read.from, to: read.to, strategy: .editList)
        #expect(plan.prerollFrames == 5)
        let output = Fixtures.temporary("mp4")
        defer { try? FileManager.default.removeItem(atPath: output) }
        _ = try ClipWriter.write(read.source, plan: plan, to: output, container: .mp4)
        let report = try FrameReader.read(path: output)
        #expect(report.frames.map(\.stamp) == (35..<50).map { Optional($0) })
        // 15 frames of 1/30 s: the container says 0.5 s, not a frame more.
        #expect(abs(try #require(report.duration).seconds - 0.5) < 0.0005)
    }

    @Test(arguments: ["mp4", "mkv"])
    func variableFrameRateKeepsTimes(ext: String) throws {
        let input = Fixtures.temporary(ext)
        defer { try? FileManager.default.removeItem(atPath: input) }
        let times = Fixtures.vfr(100)
        try Fixtures.encode(times: times, to: input, bFrames: 2, keyframeInterval: 25)
        // Frames 13 ..< 77 by their own times.
        let from = times[13] - 1000, to = times[77] - 1000
        let result = try Self.cut(input, from: from, to: to, ext: ext)
        #expect(result.stamps == (13..<77).map { Optional($0) })
        let expected = (13..<77).map { Double(times[$0] - times[13]) / 1_000_000 }
        #expect(zip(result.times, expected).allSatisfy { abs($0 - $1) < 0.0011 })
    }

    @Test(arguments: ["mp4", "mkv"])
    func keyframeModeStartsAtTheKeyframe(ext: String) throws {
        let input = Fixtures.temporary(ext)
        defer { try? FileManager.default.removeItem(atPath: input) }
        try Fixtures.encode(times: Fixtures.cfr(120), to: input, bFrames: 3)
        let result = try Self.cut(input, from: Self.at(40), to: Self.at(70), ext: ext, keyframe: true)
        #expect(result.stamps == (30..<70).map { Optional($0) })
    }

    @Test func intraOnlyCutsNeedNoReencode() throws {
        let input = Fixtures.temporary("mkv")
        defer { try? FileManager.default.removeItem(atPath: input) }
        try Fixtures.encode(times: Fixtures.cfr(60), to: input, encoder: "mjpeg")
        let result = try Self.cut(input, from: Self.at(17), to: Self.at(23), ext: "mkv")
        #expect(result.stamps == (17..<23).map { Optional($0) })
        #expect(result.report.plan.reencodedFrames == 0)
    }

    @Test func vp9InWebMSplicesAnExactHead() throws {
        let input = Fixtures.temporary("webm")
        defer { try? FileManager.default.removeItem(atPath: input) }
        try Fixtures.encode(times: Fixtures.cfr(90), to: input, encoder: "libvpx-vp9")
        let result = try Self.cut(input, from: Self.at(40), to: Self.at(75), ext: "webm")
        #expect(result.stamps == (40..<75).map { Optional($0) })
        #expect(result.report.plan.reencodedFrames > 0)
    }

    @Test func reencodeModeWritesTheWholeRangeAgain() throws {
        let input = Fixtures.temporary("mp4")
        defer { try? FileManager.default.removeItem(atPath: input) }
        try Fixtures.encode(times: Fixtures.cfr(90), to: input, bFrames: 3)
        let settings = EncoderSettings(encoder: "libx264", width: 0, height: 0, pixelFormat: .yuv420p,
                                       keyframeInterval: 30, rateControl: .crf(20), speed: "veryfast")
        let result = try Self.cut(input, from: Self.at(41), to: Self.at(77), ext: "mp4", reencode: settings)
        #expect(result.stamps == (41..<77).map { Optional($0) })
        #expect(result.report.plan.reencodedFrames == 36)
    }

    @Test(arguments: ["mp4", "mkv"])
    func audioIsKeptAndCutToTheSameRange(ext: String) throws {
        let video = Fixtures.temporary(ext)
        let input = Fixtures.temporary(ext)
        defer { for p in [video, input] { try? FileManager.default.removeItem(atPath: p) } }
        try Fixtures.encode(times: Fixtures.cfr(150), to: video, bFrames: 3)
        try Fixtures.ffmpeg(["-i", video, "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-shortest",
                             "-c:v", "copy", "-c:a", ext == "mp4" ? "aac" : "libopus", input])
        let result = try Self.cut(input, from: Self.at(45), to: Self.at(105), ext: ext)
        #expect(result.stamps == (45..<105).map { Optional($0) })
        #expect(result.report.otherPackets > 50)
        let demuxer = try Demuxer(path: result.report.path == "" ? input : input)
        #expect(demuxer.streams.count == 2)
    }
}
