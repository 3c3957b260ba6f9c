import Foundation
import Media
import RecCore
import Testing
import TestPool

/// MPEG-TS seeks to a packet at or before the time asked, not to a keyframe. The cut's scan
/// started wherever the seek landed, and every cut of an MPEG-TS file failed: "the stream has no
/// keyframe before 0:01.966, so that frame cannot be decoded" for a cut from 0.5 s of a file
/// whose keyframes come every 2 s from its start. The scan now starts again earlier until its
/// first picture is a keyframe.
@Suite(.blocking) struct TransportStreamCutTests {
    @Test(arguments: [(500_000 as Int64, 15_000_000 as Int64), (9_100_000, 19_000_000)])
    func aCutOfATransportStreamIsExact(from: Int64, to: Int64) throws {
        let path = Fixtures.temporary("ts")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Fixtures.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000",
                             "-t", "20", "-c:v", "libx264", "-g", "60", "-pix_fmt", "yuv420p", "-c:a", "aac", path])
        let reader = try FileClipReader(path: path)
        let read = try reader.read(from: .microseconds(from), to: .microseconds(to))
        let plan = try CutPlanner.plan(packets: read.source.timings, timeBase: read.source.timeBase, from: read.from, to: read.to,
                                       strategy: .spliceReencode)
        let output = Fixtures.temporary("mkv")
        defer { try? FileManager.default.removeItem(atPath: output) }
        _ = try ClipWriter.write(read.source, plan: plan, to: output, container: .mkv)
        // 30 fps from the file's start: the frames at or after `from` and before `to`.
        let expected = Int((to * 30 + 999_999) / 1_000_000 - (from * 30 + 999_999) / 1_000_000)
        let frames = try FrameReader.read(path: output).frames
        #expect(frames.count == expected)
        #expect(frames.first?.time == .zero)
    }
}
