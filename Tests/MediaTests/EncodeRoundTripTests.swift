import Foundation
import Media
import RecCore
import Testing
import TestPool

@Suite(.blocking) struct EncodeRoundTripTests {
    @Test func stampSurvivesRawDrawing() throws {
        let pattern = TestPattern(width: 320, height: 240)
        for i in [0, 1, 2, 255, 256, 65_537, FrameStamp.maxValue] {
            let frame = try VideoFrame(format: pattern.format)
            pattern.draw(i, into: frame)
            #expect(frame.readStamp() == i)
        }
    }

    @Test(arguments: [("libx264", "mp4"), ("libx264", "mkv"), ("mjpeg", "mkv"), ("ffv1", "mkv"), ("libvpx-vp9", "webm")])
    func encodeAndReadBackEveryFrame(encoder: String, ext: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rt-\(encoder)-\(UUID()).\(ext)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Fixtures.encode(times: Fixtures.cfr(45), to: path, encoder: encoder)
        let report = try FrameReader.read(path: path)
        #expect(report.frames.map(\.stamp) == (0..<45).map { Optional($0) })
        let times = report.frames.map { $0.time.seconds }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(abs(times.last! - 44.0 / 30) < 0.002)
    }
}
