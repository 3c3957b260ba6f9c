import Foundation
import Media
import RecCore
import Testing

/// A segment that holds a single frame: the keyframe that started it was the last frame before a
/// stop, or the source sent nothing more until after the next boundary. It must read back with
/// that frame, in every container: an MP4 segment's rewrite gave its only frame no duration, so it
/// was presented for no time and read back empty (the "one segment with no frames" of the upload
/// tests, issue 39).
@Suite struct SegmentedWriterOneFrameTests {
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

    @Test(arguments: cases, ["mp4", "mov", "mkv"])
    func everySegmentHoldsItsFrames(_ c: Case, ext: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("one-frame-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // An MP4 states every packet's duration, as the encoder's pipeline gives them to the writer.
        let fixture = folder + "/fixture.mp4"
        try Fixtures.encode(times: c.times, to: fixture, encoder: "libx264", bFrames: 0, keyframeInterval: c.keyframeInterval)
        let reader = try Demuxer(path: fixture)
        let path = folder + "/seg." + ext
        let catalog = SegmentCatalog(settings: SegmentSettings(length: Timestamp(seconds: 1)))
        let writer = try SegmentedWriter(path: path, container: try #require(ContainerFormat(path: path)),
                                         streams: [StreamParameters(.video, reader.streams[0].parameters)],
                                         naming: try SegmentNaming(path: path), catalog: catalog)
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
}
