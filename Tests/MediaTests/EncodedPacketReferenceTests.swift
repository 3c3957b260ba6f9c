import CFFmpeg
import Foundation
@testable import Media
import RecCore
import Testing
import TestPool

/// Encoders hand out packets that hold FFmpeg's buffer by reference, side data and all: what a
/// muxer is handed (`EncodedPacket.fill`) is another reference to the very bytes the encoder
/// made, so no consumer copies them, and side data reaches the file.
@Suite(.blocking) struct EncodedPacketReferenceTests {
    /// Fills a packet as a muxer's `write` does and lets `check` look at it.
    static func handed(_ packet: EncodedPacket, _ check: (UnsafeMutablePointer<AVPacket>) -> Void) throws {
        let owner = try PacketOwner()
        try packet.fill(owner.pointer, rescaledTo: packet.timeBase, streamIndex: 0)
        defer { av_packet_unref(owner.pointer) }
        check(owner.pointer)
    }

    static func address(_ packet: EncodedPacket) -> UnsafeRawPointer? {
        packet.shared?.withUnsafeBytes { $0.baseAddress }
    }

    @Test func videoPacketsReachTheMuxerByReferenceWithTheirSideData() throws {
        let path = Fixtures.temporary("mkv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let packets = try Fixtures.encode(times: Fixtures.cfr(12), to: path)
        #expect(packets.count == 12)
        // libx264 reports each picture's quantiser and type (AV_PKT_DATA_QUALITY_STATS).
        let stats = Int32(bitPattern: AV_PKT_DATA_QUALITY_STATS.rawValue)
        for p in packets {
            #expect(p.shared != nil)
            #expect(p.sideData.contains { $0.kind == stats })
            try Self.handed(p) { m in
                #expect(Self.address(p) != nil && UnsafeRawPointer(m.pointee.data) == Self.address(p))
                #expect(PacketSideData.copied(from: m) == p.sideData)
            }
        }
        #expect(try PacketReferenceTests.videoPayloads(path).count == packets.count)
    }

    /// libopus marks its last packet's padding (`AV_PKT_DATA_SKIP_SAMPLES`): it goes from the
    /// encoder through the packet's reference into WebM's DiscardPadding and back out of the file.
    @Test func soundSideDataGoesByReferenceIntoTheFile() throws {
        let chunks = try SoundFixtures.sine(.floatPlanar(rate: 48_000, channels: 2), seconds: 1.01)
        let (packets, pipeline) = try SoundFixtures.encode(chunks, AudioEncoding(encoder: "libopus", bitrate: 128_000))
        let last = try #require(packets.last)
        #expect(packets.allSatisfy { $0.shared != nil })
        try Self.handed(last) { m in
            #expect(UnsafeRawPointer(m.pointee.data) == Self.address(last))
            #expect(PacketSideData.copied(from: m).contains { $0.kind == PacketSideData.skipSamplesKind })
        }
        // A packet whose side data was changed (as a cut trims sound) is written as changed.
        var trimmed = last
        trimmed.sideData.removeAll { $0.kind == PacketSideData.skipSamplesKind }
        try Self.handed(trimmed) { m in #expect(m.pointee.side_data_elems == 0) }

        let path = Fixtures.temporary("webm")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try SoundFixtures.mux(packets, pipeline.parameters, to: path)
        let demuxer = try Demuxer(path: path)
        var read: [EncodedPacket] = []
        while let p = try demuxer.read() { read.append(p) }
        #expect(read.map(\.data) == packets.map(\.data))
        #expect(read.last?.sideData.contains { $0.kind == PacketSideData.skipSamplesKind } == true)
    }
}
