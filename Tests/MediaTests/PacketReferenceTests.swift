import Foundation
import Media
import RecCore
import Testing
import TestPool

/// Packets read from a file keep their bytes in FFmpeg's buffer (`EncodedPacket.shared`), and a
/// copied cut hands that buffer to the muxer: the clip's packets are the source's, byte for byte.
@Suite(.blocking) struct PacketReferenceTests {
    static func videoPayloads(_ path: String) throws -> [[UInt8]] {
        let demuxer = try Demuxer(path: path)
        var out: [[UInt8]] = []
        while let p = try demuxer.read() { if p.streamIndex == 0 { out.append(p.data) } }
        return out
    }

    @Test func demuxedPacketsShareTheirBytesUntilReplaced() throws {
        let input = Fixtures.temporary("mp4")
        defer { try? FileManager.default.removeItem(atPath: input) }
        let encoded = try Fixtures.encode(times: Fixtures.cfr(10), to: input)
        let p = try #require(try Demuxer(path: input).read())
        #expect(p.shared != nil)
        #expect(p.size > 3 && p.size == p.data.count)
        // The file holds the encoder's bytes (length-prefixed, as the MP4 muxer wrote them).
        #expect(p.size <= encoded[0].size + 8)
        var q = p
        q.data = [1, 2, 3]
        #expect(q.shared == nil && q.size == 3 && q.data == [1, 2, 3])
        #expect(p.shared != nil && p.size > 3)
    }

    @Test func aCopiedCutWritesTheSourcesBytes() throws {
        let input = Fixtures.temporary("mp4")
        let output = Fixtures.temporary("mp4")
        defer { for p in [input, output] { try? FileManager.default.removeItem(atPath: p) } }
        try Fixtures.encode(times: Fixtures.cfr(120), to: input, bFrames: 3)
        let read = try FileClipReader(path: input).read(from: .microseconds(1_400_000), to: .microseconds(3_100_000))
        let plan = try CutPlanner.plan(packets: read.source.timings, timeBase: read.source.timeBase, from: read.from,
                                       to: read.to, strategy: .editList)
        _ = try ClipWriter.write(read.source, plan: plan, to: output, container: .mp4)
        let source = try Self.videoPayloads(input)
        let clip = try Self.videoPayloads(output)
        let copied = try #require(plan.segments.first).range
        #expect(plan.segments.count == 1 && clip.count == copied.count)
        // The clip starts at a keyframe of the source (each frame's picture differs) and goes on
        // with the packets that follow it, unchanged.
        let head = try #require(clip.first)
        let start = try #require(source.firstIndex(of: head))
        #expect(Array(source[start..<min(source.count, start + clip.count)]) == clip)
    }
}
