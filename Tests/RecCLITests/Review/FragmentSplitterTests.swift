import Foundation
import RecCore
import Testing
import TestPool

/// `FragmentSplitter` on fragmented MP4 that FFmpeg's own muxer wrote (H.264 with B-frames and
/// AAC, a fragment per picture, the sound in its own track fragments): the review server reads
/// each camera's stream once and starts its viewers at keyframes by it (docs/REVIEW.md).
@Suite(.blocking) struct FragmentSplitterTests {
    /// 60 frames of 25 fps, a keyframe every 12, with sound; written by the ffmpeg CLI.
    static func fragmented(_ folder: String, movflags: String) throws -> [UInt8] {
        // frag_every_frame cuts at every packet, the sound's too: fragments of sound alone come between.
        let path = folder + "/fragmented.mp4"
        _ = try ColourTests.tool("/usr/bin/ffmpeg", [
            "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x96:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
            "-t", "2.4", "-c:v", "libx264", "-preset", "ultrafast", "-g", "12", "-bf", "2", "-sc_threshold", "0", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-movflags", movflags, "-f", "mp4", path])
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rec-splitter-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Fed in pieces of every size from 1 byte to all at once, the stream comes out as one init
    /// segment and fragments that put it back together byte for byte; five fragments are marked as
    /// keyframes, of sound and pictures mixed, and a file of the init segment and the fragments from
    /// each mark on is, to ffprobe, the pictures from that keyframe on, the first a keyframe.
    @Test(arguments: ["empty_moov+default_base_moof+frag_every_frame", "empty_moov+default_base_moof+frag_every_frame+separate_moof"])
    func splitsFFmpegsFragmentsAndFindsTheirKeyframes(movflags: String) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try Self.fragmented(folder, movflags: movflags)
        // The pictures' keyframe flags in decode order, by ffprobe.
        let keys = try Self.pictureFlags(folder + "/fragmented.mp4")
        #expect(keys.count == 60 && keys.filter { $0 }.count == 5, "\(keys.count) pictures, \(keys.filter { $0 }.count) keyframes")
        var fragments: [(bytes: [UInt8], keyframe: Bool)] = [], initSegment: [UInt8] = []
        for size in [1, 7, 4096, file.count] {
            var splitter = FragmentSplitter(), pieces: [FragmentSplitter.Piece] = []
            for start in stride(from: 0, to: file.count, by: size) {
                pieces += try splitter.push(file[start..<min(file.count, start + size)])
            }
            var joined: [UInt8] = [], inits = 0
            fragments = []
            for piece in pieces {
                switch piece {
                case .initSegment(let bytes): inits += 1; joined += bytes; initSegment = bytes
                case .fragment(let bytes, let keyframe): fragments.append((bytes, keyframe)); joined += bytes
                }
            }
            #expect(inits == 1 && pieces.first.map { if case .initSegment = $0 { true } else { false } } == true, "piece size \(size)")
            // What is left after the last mdat (mfra, when ffmpeg wrote one) is not a fragment.
            #expect(joined == Array(file.prefix(joined.count)) && file.count - joined.count < 4096, "piece size \(size): \(joined.count) of \(file.count) bytes")
            #expect(fragments.count > 60 && fragments.filter(\.keyframe).count == 5, "piece size \(size): \(fragments.count) fragments, \(fragments.filter(\.keyframe).count) marked")
        }
        // From each mark on: the pictures from the n-th keyframe on (60, 48, 36, 24, 12 of them).
        for (n, index) in fragments.indices.filter({ fragments[$0].keyframe }).enumerated() {
            let path = folder + "/from-\(n).mp4"
            try Data(initSegment + fragments[index...].flatMap(\.bytes)).write(to: URL(fileURLWithPath: path))
            let flags = try Self.pictureFlags(path)
            #expect(flags.count == 60 - 12 * n && flags.first == true, "from mark \(n): \(flags.count) pictures, first a keyframe: \(flags.first ?? false)")
        }
    }

    /// Each picture's keyframe flag in decode order, by ffprobe.
    static func pictureFlags(_ path: String) throws -> [Bool] {
        let probe = try ColourTests.tool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=flags", "-of", "csv=p=0", path])
        return probe.split(separator: "\n").map { $0.hasPrefix("K") }
    }

    /// A box too short to be one, a box that runs to the end of a live stream and fragments before
    /// any `moov` are refused, never read past.
    @Test func refusesWhatCannotBeAStream() {
        var short = FragmentSplitter()
        #expect(throws: FragmentSplitter.Malformed.self) { try short.push([0, 0, 0, 4, 0x66, 0x72, 0x65, 0x65]) }
        var open = FragmentSplitter()
        #expect(throws: FragmentSplitter.Malformed.self) { try open.push([0, 0, 0, 0, 0x6D, 0x64, 0x61, 0x74]) }
        var early = FragmentSplitter()
        #expect(throws: FragmentSplitter.Malformed.self) { try early.push([0, 0, 0, 8, 0x6D, 0x6F, 0x6F, 0x66]) }
        var partial = FragmentSplitter()
        #expect((try? partial.push([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70, 1, 2])) == [])
    }
}
