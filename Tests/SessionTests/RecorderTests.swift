import Capture
import Foundation
import Media
import RecCore
import Session
import Testing
import TestPool

@Suite(.blocking) struct RecorderTests {
    static func settings(_ encoder: String = "libx264") -> EncoderSettings {
        EncoderSettings(encoder: encoder, width: 0, height: 0, pixelFormat: .yuv420p, speed: encoder == "libx264" ? "veryfast" : nil)
    }

    static func temp(_ ext: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("rec-\(UUID()).\(ext)").path
    }

    @Test(arguments: [ContainerFormat.mp4, .mkv])
    func recordsTestPatternFrameByFrame(container: ContainerFormat) throws {
        FFmpegLog.quiet()
        let path = Self.temp(container.rawValue)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let config = RecorderConfiguration(encoder: Self.settings(), keyframeSeconds: 1,
                                           output: .init(path: path, container: container), pace: .off, frameLimit: 75)
        let recorder = Recorder(source: TestPatternSource(width: 320, height: 240, fps: 30), configuration: config)
        try recorder.waitUntilStarted()
        recorder.waitUntilFinished()
        let stats = recorder.currentStats
        #expect(stats.state == .finished)
        #expect(stats.framesCaptured == 75)
        #expect(stats.framesEncoded == 75)
        #expect(stats.droppedLate == 0)
        let report = try FrameReader.read(path: path)
        #expect(report.frames.map(\.stamp) == (0..<75).map { Optional($0) })
        let times = report.frames.map { $0.time.seconds }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        // Keyframe every second: frames 0, 30, 60.
        let keys = report.frames.enumerated().filter(\.element.isKeyframe).map(\.offset)
        #expect(keys == [0, 30, 60])
        // Duration within a frame of 75/30 s.
        let duration = try #require(report.duration).seconds
        #expect(abs(duration - 2.5) <= 1.0 / 30 + 0.001)
    }
}
