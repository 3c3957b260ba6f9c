import Foundation
import Media
import RecCore
import Testing
import TestPool

/// A segment that holds a single frame: the keyframe that started it was the last frame before a
/// stop, or the source sent nothing more until after the next boundary. It must read back with
/// that frame, in every container: an MP4 segment's rewrite gave its only frame no duration, so it
/// was presented for no time and read back empty (the "one segment with no frames" of the upload
/// tests, issue 39).
@Suite(.blocking) struct SegmentedWriterOneFrameTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// Capture times in µs of the frames encoded.
        var times: [Int64]
        var keyframeInterval: Int
        /// Frames expected in each segment, in order.
        var frames: [Int]
        var testDescription: String { name }
    }

    static let cases = [
        // 1 s segments and a keyframe every 30 frames at 30 fps: frame 30, at 1.0 s, starts the second.
        Case(name: "stopped right after a rotation", times: Fixtures.cfr(31), keyframeInterval: 30, frames: [30, 1]),
        // Every frame a keyframe; the frame after 1.0 s comes at 2.0 s (a camera's outage).
        Case(name: "a pause right after a rotation", times: Fixtures.cfr(30) + [1_000_000, 2_000_000, 2_033_333, 2_066_667],
             keyframeInterval: 1, frames: [30, 1, 3]),
    ]

    /// Encoded pictures in a fixture, and a writer of 1 s segments of them in a fresh folder.
    struct Setup {
        let folder: String
        let reader: Demuxer
        let catalog = SegmentCatalog(settings: SegmentSettings(length: Timestamp(seconds: 1)))
        let writer: SegmentedWriter

        init(times: [Int64], keyframeInterval: Int, ext: String) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("one-frame-\(UUID())").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // An MP4 states every packet's duration, as the encoder's pipeline gives them to the writer.
            let fixture = folder + "/fixture.mp4"
            try Fixtures.encode(times: times, to: fixture, encoder: "libx264", bFrames: 0, keyframeInterval: keyframeInterval)
            reader = try Demuxer(path: fixture)
            let path = folder + "/seg." + ext
            writer = try SegmentedWriter(path: path, container: try #require(ContainerFormat(path: path)),
                                         streams: [StreamParameters(.video, reader.streams[0].parameters)],
                                         naming: try SegmentNaming(path: path), catalog: catalog)
        }

        func remove() { try? FileManager.default.removeItem(atPath: folder) }
    }

    @Test(arguments: cases, ["mp4", "mov", "mkv"])
    func everySegmentHoldsItsFrames(_ c: Case, ext: String) throws {
        let setup = try Setup(times: c.times, keyframeInterval: c.keyframeInterval, ext: ext)
        defer { setup.remove() }
        let (reader, writer, catalog) = (setup.reader, setup.writer, setup.catalog)
        while let packet = try reader.read() { try writer.append(packet) }
        try writer.finish()
        let segments = catalog.records
        #expect(segments.map(\.state) == Array(repeating: .done, count: c.frames.count))
        var first = 0
        for (segment, count) in zip(segments, c.frames) {
            let stamps = try FrameReader.read(path: segment.path).frames.map(\.stamp)
            #expect(stamps == (first..<(first + count)).map { Optional($0) }, "\(segment.path) from \(segment.start.seconds) s")
            first += count
        }
    }

    /// What a kill leaves right after a rotation: the new segment's file already holds the keyframe
    /// that started it (it held only its header until the fragment ended 0.1 s of video later, so
    /// a session killed then left a file with no frame, which the next one queued for upload).
    @Test(arguments: ["mp4", "mov", "mkv"])
    func aNewSegmentHoldsItsFirstFrameAtOnce(ext: String) throws {
        let setup = try Setup(times: Fixtures.cfr(35), keyframeInterval: 30, ext: ext)
        defer { setup.remove() }
        let (reader, writer, catalog) = (setup.reader, setup.writer, setup.catalog)
        try writer.append(try #require(try reader.read()))
        #expect(try FrameReader.read(path: writer.path).frames.map(\.stamp) == [0], "the first segment")
        for _ in 1...30 { try writer.append(try #require(try reader.read())) }
        #expect(catalog.records.count == 2)
        #expect(try FrameReader.read(path: writer.path).frames.map(\.stamp) == [30], "the segment frame 30 started")
        while let packet = try reader.read() { try writer.append(packet) }
        try writer.finish()
        let stamps = try catalog.records.flatMap { try FrameReader.read(path: $0.path).frames.map(\.stamp) }
        #expect(stamps == (0..<35).map { Optional($0) })
    }
}
