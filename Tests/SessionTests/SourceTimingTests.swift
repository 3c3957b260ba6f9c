import Capture
import Foundation
import Encoding
import Media
import RecCore
import Session
import Testing
import TestPool

/// The file source keeps the file's own timing, variable frame rate included; filters run between
/// source and encoder.
@Suite(.blocking) struct SourceTimingTests {
    static func temp(_ ext: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("timing-\(UUID()).\(ext)").path
    }

    /// A VFR file of the stand-in camera's pictures: gaps cycling through 20, 50, 33 and 70 ms.
    static func makeVFR(_ path: String, frames: Int) throws -> [Int64] {
        let pattern = TestPattern(width: 320, height: 240)
        let gaps: [Int64] = [20_000, 50_000, 33_000, 70_000]
        var times: [Int64] = []
        var t: Int64 = 0
        for i in 0..<frames { times.append(t); t += gaps[i % 4] }
        let settings = EncoderSettings(encoder: "ffv1", width: 320, height: 240, pixelFormat: .yuv420p)
        let pipeline = try EncodingPipeline(settings: settings, input: pattern.format, filter: nil)
        let muxer = try Muxer(path: path, container: "matroska", streams: [pipeline.encoder.parameters])
        for (i, time) in times.enumerated() {
            let frame = try VideoFrame(format: pattern.format, captureTime: .microseconds(time))
            pattern.draw(i, into: frame)
            try pipeline.encode(frame) { p throws(FFmpegError) in try muxer.write(p) }
        }
        try pipeline.finish { p throws(FFmpegError) in try muxer.write(p) }
        try muxer.finish()
        return times
    }

    @Test(arguments: [RecorderConfiguration.Pace.off, .realtime])
    func fileSourceKeepsVariableFrameRate(pace: RecorderConfiguration.Pace) throws {
        FFmpegLog.quiet()
        let input = Self.temp("mkv"), output = Self.temp("mp4")
        defer { for p in [input, output] { try? FileManager.default.removeItem(atPath: p) } }
        let times = try Self.makeVFR(input, frames: 24)
        let config = RecorderConfiguration(
            encoder: EncoderSettings(encoder: "libx264", width: 0, height: 0, pixelFormat: .yuv420p, speed: "veryfast"),
            output: .init(path: output, container: .mp4), pace: pace)
        let recorder = Recorder(source: FileSource(path: input), configuration: config)
        try recorder.waitUntilStarted()
        recorder.waitUntilFinished()
        #expect(recorder.currentStats.state == .finished)
        #expect(recorder.currentStats.droppedLate == 0)
        let report = try FrameReader.read(path: output)
        #expect(report.frames.map(\.stamp) == (0..<24).map { Optional($0) })
        // Matroska stores milliseconds, so each time is the original to within half a millisecond.
        let got = report.frames.map { $0.time.rescaled(to: .microseconds).value }
        #expect(zip(got, times).allSatisfy { abs($0 - $1) <= 600 }, "\(got) vs \(times)")
    }

    @Test func filterRunsBeforeTheEncoder() throws {
        FFmpegLog.quiet()
        let output = Self.temp("mkv")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let config = RecorderConfiguration(
            encoder: EncoderSettings(encoder: "ffv1", width: 0, height: 0, pixelFormat: .yuv420p),
            filter: "scale=170:128", output: .init(path: output, container: .mkv), pace: .off, frameLimit: 10)
        let recorder = Recorder(source: TestPatternSource(width: 340, height: 256, fps: 30), configuration: config)
        try recorder.waitUntilStarted()
        recorder.waitUntilFinished()
        let report = try FrameReader.read(path: output)
        #expect(report.width == 170 && report.height == 128)
        #expect(report.frames.map(\.stamp) == (0..<10).map { Optional($0) })
    }

    @Test func aBadFilterIsAUsageError() throws {
        let config = RecorderConfiguration(
            encoder: EncoderSettings(encoder: "ffv1", width: 0, height: 0, pixelFormat: .yuv420p),
            filter: "nosuchfilter=1", output: nil, pace: .off, frameLimit: 3)
        let recorder = Recorder(source: TestPatternSource(width: 320, height: 240, fps: 30), configuration: config)
        let error = #expect(throws: RecError.self) { try recorder.waitUntilStarted() }
        #expect(error?.code == .usage)
        #expect(error?.message.contains("nosuchfilter") == true)
    }
}
