import Foundation
import Media
import RecCore
import Testing
import TestPool

/// Finishing a recording: at most one sequential rewrite, fsynced, moov first, nothing left beside it.
@Suite(.blocking) struct AssetWriterFinishTests {
    /// Bytes this thread has passed to write(2) so far (/proc/thread-self/io `wchar`): tests run in
    /// parallel in one process, so the process's own count would include theirs.
    static func threadWriteBytes() throws -> Int64 {
        let text = try String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("wchar:") })
        return try #require(Int64(line.dropFirst("wchar:".count).trimmingCharacters(in: .whitespaces)))
    }

    @Test func finishingAnMP4WritesItOnceWithMoovFirst() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("finish-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fixture = folder + "/fixture.mp4"
        try Fixtures.encode(times: Fixtures.cfr(300), to: fixture, encoder: "libx264", keyframeInterval: 30)
        // The fixture's own packets with its own parameters (length-prefixed H.264 and its avcC).
        let reader = try Demuxer(path: fixture)
        let path = folder + "/rec.mp4"
        let writer = try AssetWriter(path: path, container: .mp4, streams: [StreamParameters(.video, reader.streams[0].parameters)])
        while let p = try reader.read() { try writer.append(p) }
        let before = try Self.threadWriteBytes()
        try writer.finish()
        let written = try Self.threadWriteBytes() - before
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64)
        // One rewrite: the file once, plus the room reserved for its index (and the last fragment
        // and trailer of the fragmented file, a few kilobytes).
        #expect(written <= size + size / 10 + 65_536, "finishing a \(size)-byte file wrote \(written) bytes")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let moov = try #require(bytes.range(of: Data("moov".utf8))).lowerBound
        let mdat = try #require(bytes.range(of: Data("mdat".utf8))).lowerBound
        #expect(moov < mdat)
        #expect(bytes.range(of: Data("moof".utf8)) == nil)
        #expect(try FrameReader.read(path: path).frames.count == 300)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["fixture.mp4", "rec.mp4"])
    }
}

/// bench/README.md's "finishing an hour" figure: REC_FINISH_BENCH=FILE.mp4 (a fragmented MP4 as
/// rec writes it) is copied through an AssetWriter, then its finish is timed and its writes counted.
@Suite(.blocking) struct AssetWriterFinishBench {
    static let input = ProcessInfo.processInfo.environment["REC_FINISH_BENCH"]

    @Test(.enabled(if: input != nil)) func finishAnHour() throws {
        let input = try #require(Self.input)
        let reader = try Demuxer(path: input)
        let path = (input as NSString).deletingPathExtension + "-rec.mp4"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try AssetWriter(path: path, container: .mp4, streams: [StreamParameters(.video, reader.streams[0].parameters)])
        while let p = try reader.read() { try writer.append(p) }
        let before = try AssetWriterFinishTests.threadWriteBytes()
        let clock = ContinuousClock()
        let took = try clock.measure { try writer.finish() }
        let written = try AssetWriterFinishTests.threadWriteBytes() - before
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64)
        print("finish: \(writer.packetsWritten) packets, \(size) bytes, wrote \(written) bytes in \(took)")
    }
}
