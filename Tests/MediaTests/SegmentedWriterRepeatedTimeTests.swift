import Foundation
import Media
import RecCore
import Testing
import TestPool

/// A camera re-timed by its first RTCP sender report can repeat a picture's decode time; the writer
/// moves the repeated one a tick on, and the file must go on (bench/README.md, "A bug this found").
@Suite(.blocking) struct SegmentedWriterRepeatedTimeTests {
    @Test func aRepeatedDecodeTimeKeepsTheFileGoing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repeat-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fixture = folder + "/fixture.mp4"
        try Fixtures.encode(times: Fixtures.cfr(60), to: fixture, encoder: "libx264", bFrames: 0, keyframeInterval: 30)
        let reader = try Demuxer(path: fixture)
        let path = folder + "/rec.mp4"
        let writer = try SegmentedWriter(path: path, container: .mp4, streams: [StreamParameters(.video, reader.streams[0].parameters)])
        var previous: (pts: Int64, dts: Int64)?
        var count = 0
        while var p = try reader.read() {
            count += 1
            // The 10th picture comes with the 9th's times (no B-frames: pts = dts).
            if count == 10, let last = previous { (p.pts, p.dts) = last }
            previous = (p.pts, p.dts)
            try writer.append(p)
        }
        try writer.finish()
        #expect(writer.failure == nil)
        #expect(try FrameReader.read(path: path).frames.count == 60)
    }
}
