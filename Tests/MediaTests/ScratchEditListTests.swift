import Foundation
import Media
import RecCore
import Testing

@Suite struct ScratchEditList {
    @Test func experiment() throws {
        FFmpegLog.quiet()
        let src = FileManager.default.temporaryDirectory.appendingPathComponent("scratch-src.mp4").path
        let packets = try EncodeRoundTripTests.encodeTestPattern(frames: 90, to: src, bFrames: 3)
        // Read back the file's packets (stream timebase).
        let d = try Demuxer(path: src)
        var ps: [EncodedPacket] = []
        while let p = try d.read() { ps.append(p) }
        print("enc durations", packets.prefix(5).map(\.duration))
        print("encoder packets", packets.count, "file packets", ps.count, "tb", ps[0].timeBase)
        for p in ps.prefix(12) { print(p.pts, p.dts, p.duration, p.isKeyframe) }
        let sorted = ps.map(\.pts).sorted()
        let from = sorted[35], to = sorted[50]
        // keyframe at/before from in decode order
        let k = ps.lastIndex { $0.isKeyframe && $0.pts <= from }!
        // last needed: all packets with pts < to, in decode order
        let last = ps.lastIndex { $0.pts < to }!
        var out: [EncodedPacket] = []
        for i in k...last {
            var p = ps[i]; p.pts -= from; p.dts -= from; out.append(p)
        }
        let dst = FileManager.default.temporaryDirectory.appendingPathComponent("scratch-cut.mp4").path
        let m = try Muxer(path: dst, container: "mp4", streams: [d.streams[0].parameters])
        for p in out { try m.write(p) }
        try m.finish()
        let r = try FrameReader.read(path: dst)
        print("cut stamps", r.frames.map { $0.stamp ?? -1 }, r.frames.map(\.pts))
    }
}
