import Foundation
import Media
import RecCore
import Testing
import TestPool

/// A cut of a file whose samples only their packets give (Matroska, fragmented MP4 as rec records
/// until it finishes) reads its range once: the scan keeps the packets it reads for the clip,
/// within `FileClip.heldLimit`, and the clip writer reads nothing more. Counted as the bytes the
/// cutting thread reads (`rchar` of `/proc/thread-self/io`) while it scans and while it writes.
/// Before, the writer read the range again: as much as the scan had (1.0× the file's size for a
/// cut of nearly all of a Matroska file; 4.8× for this fragmented MP4, whose every sample
/// libavformat reads through a 32 KiB buffer as it goes back and forth between the video and the
/// sound of a fragment).
@Suite(.blocking) struct CutReadsOnceTests {
    /// 20 s of 320x240 testsrc2 at 30 fps with a 1 kHz AAC tone, x264 with its default B-frames,
    /// keyframes every 2 s; `fragmented` as rec's recordings are until they finish.
    static func source(_ kind: String) throws -> String {
        let ext = kind == "fragmented" ? "mp4" : kind
        let extra = kind == "fragmented" ? ["-movflags", "frag_keyframe+empty_moov+default_base_moof"] : []
        let path = Fixtures.temporary(ext)
        try Fixtures.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000",
                             "-t", "20", "-c:v", "libx264", "-g", "60", "-pix_fmt", "yuv420p", "-c:a", "aac"] + extra + [path])
        return path
    }

    /// Bytes this thread has read (files, pipes) so far: `rchar` of `/proc/thread-self/io`.
    static func bytesRead() throws -> Int64 {
        let text = try String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("rchar:") })
        return try #require(Int64(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)))
    }

    /// Cuts `from`–`to` (µs; by default 0.5–19.5 s, nearly all of it) of `path` into a Matroska
    /// clip, exact (the head re-encoded), keeping at most `limit` bytes of packets; returns the
    /// clip's path, the bytes read while scanning (opening the file included) and while writing,
    /// and the bytes kept.
    static func cut(_ path: String, from: Int64 = 500_000, to: Int64 = 19_500_000, keeping limit: Int = FileClip.heldLimit) throws
        -> (clip: String, scanned: Int64, written: Int64, held: Int) {
        let output = Fixtures.temporary("mkv")
        let before = try bytesRead()
        let reader = try FileClipReader(path: path)
        let (from, to) = (Timestamp.microseconds(from), Timestamp.microseconds(to))
        let read = try reader.read(from: from, to: to, keeping: limit)
        let scanned = try bytesRead()
        let plan = try CutPlanner.plan(packets: read.source.timings, timeBase: read.source.timeBase, from: read.from, to: read.to,
                                       strategy: .spliceReencode)
        _ = try ClipWriter.write(read.source, plan: plan, to: output, container: .mkv)
        return (output, scanned - before, try bytesRead() - scanned, read.source.heldBytes)
    }

    @Test(arguments: ["mkv", "fragmented"])
    func aCutReadsItsRangeOnce(kind: String) throws {
        let path = try Self.source(kind)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64)
        let cut = try Self.cut(path)
        defer { try? FileManager.default.removeItem(atPath: cut.clip) }
        #expect(cut.held > Int(size) * 8 / 10)
        // The scan reads the range (nearly the whole file); the writer, nothing of it again.
        #expect(cut.scanned > size * 9 / 10, "scanned \(cut.scanned) of \(size) bytes")
        #expect(cut.written < size / 50, "read \(cut.written) of \(size) bytes again")
    }

    /// The clip from packets the scan kept is the clip from packets read again, packet for packet.
    @Test(arguments: ["mkv", "fragmented"])
    func theClipIsTheSameKeptOrReadAgain(kind: String) throws {
        let path = try Self.source(kind)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64)
        let kept = try Self.cut(path)
        let again = try Self.cut(path, keeping: 0)
        defer { for p in [kept.clip, again.clip] { try? FileManager.default.removeItem(atPath: p) } }
        #expect(kept.held > 0)
        #expect(again.held == 0)
        #expect(again.written > size * 9 / 10, "read \(again.written) of \(size) bytes again")
        let hashes = try SkimmingScanTests.packetHashes(kept.clip)
        #expect(hashes == (try SkimmingScanTests.packetHashes(again.clip)))
        #expect(hashes.split(separator: "\n").count > 900)
    }

    /// A range that looked small enough but whose packets pass the bound as they are read (here
    /// the 2 s GOP before 1.9 s, read to decode it) is let go of, and the writer reads it again.
    @Test func aRangeOutgrowingTheBoundIsReadAgain() throws {
        let path = try Self.source("mkv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let kept = try Self.cut(path, from: 1_900_000, to: 2_500_000)
        let again = try Self.cut(path, from: 1_900_000, to: 2_500_000, keeping: size / 10)
        defer { for p in [kept.clip, again.clip] { try? FileManager.default.removeItem(atPath: p) } }
        #expect(kept.held > size / 10)
        #expect(kept.written < Int64(size / 50))
        #expect(again.held == 0)
        #expect(again.written > Int64(size / 10))
        let hashes = try SkimmingScanTests.packetHashes(kept.clip)
        #expect(hashes == (try SkimmingScanTests.packetHashes(again.clip)))
    }
}

/// A long range (far past `FileClip.heldLimit`) of a Matroska, fragmented MP4 or MPEG-TS file is
/// read once too: the clip is written as the range is read (`FileClipReader.cut`), holding a GOP
/// or two, and is the clip written from the final plan with the range read again, packet for
/// packet. Before, such a range was scanned and then read again by the writer: twice the bytes.
@Suite(.blocking) struct LongCutReadsOnceTests {
    /// 20 s of 640x360 testsrc2 with noise at 16 Mb/s (x264 veryfast: B-pyramid, keyframes every
    /// 2 s and at scene cuts) and AAC, about 40 MB, in Matroska; `remuxed` into fragmented MP4 and
    /// MPEG-TS too. The caller removes them.
    static func sources(remuxed: Bool, sound: String = "aac") throws -> [String: String] {
        let mkv = Fixtures.temporary("mkv")
        try Fixtures.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000",
                             "-t", "20", "-vf", "noise=alls=12:allf=t", "-c:v", "libx264", "-preset", "veryfast", "-b:v", "16M",
                             "-g", "60", "-pix_fmt", "yuv420p", "-c:a", sound, mkv])
        guard remuxed else { return ["mkv": mkv] }
        let mp4 = Fixtures.temporary("mp4")
        try Fixtures.ffmpeg(["-i", mkv, "-c", "copy", "-movflags", "frag_keyframe+empty_moov+default_base_moof", mp4])
        let ts = Fixtures.temporary("ts")
        try Fixtures.ffmpeg(["-i", mkv, "-c", "copy", ts])
        return ["mkv": mkv, "fragmented": mp4, "ts": ts]
    }

    static func size(_ path: String) throws -> Int64 {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64)
    }

    /// Cuts 0.5–19.5 s of `path` into `ext` as `rec trim` does; `window` 0 gives up writing as it
    /// reads at once (the clip is then written from the final plan, the range read again).
    /// Returns the clip, the bytes this thread read, and the report.
    static func cut(_ path: String, into ext: String, mode: CutPlan.Mode = .exact, strategy: CutPlan.Strategy = .spliceReencode,
                    window: Int = FileClipReader.streamingWindow) throws -> (clip: String, read: Int64, report: ClipWriter.Report) {
        let output = Fixtures.temporary(ext)
        let reader = try FileClipReader(path: path)
        let before = try CutReadsOnceTests.bytesRead()
        let report = try reader.cut(from: .microseconds(500_000), to: .microseconds(19_500_000), mode: mode, strategy: strategy,
                                    into: output, container: ext == "mp4" ? .mp4 : .mkv, window: window)
        return (output, try CutReadsOnceTests.bytesRead() - before, report)
    }

    /// The bytes the scan alone reads (one pass over the range, as `--dry-run` does).
    static func scanned(_ path: String) throws -> Int64 {
        let reader = try FileClipReader(path: path)
        let before = try CutReadsOnceTests.bytesRead()
        _ = try reader.read(from: .microseconds(500_000), to: .microseconds(19_500_000), keeping: 0)
        return try CutReadsOnceTests.bytesRead() - before
    }

    /// An exact cut of 19 s of each kind of file reads what one scan of the range reads, not
    /// twice that, and holds a GOP or two of packets.
    @Test func aLongRangeIsReadOnce() throws {
        let sources = try Self.sources(remuxed: true)
        defer { for p in sources.values { try? FileManager.default.removeItem(atPath: p) } }
        for kind in ["mkv", "fragmented", "ts"] {
            let path = try #require(sources[kind])
            let once = try Self.scanned(path)
            #expect(once > (try Self.size(path)) * 9 / 10, "the range is most of the file")
            #expect(once > 2 * Int64(FileClip.heldLimit), "the range is far past the bound kept whole")
            let cut = try Self.cut(path, into: "mkv")
            defer { try? FileManager.default.removeItem(atPath: cut.clip) }
            let (readTwice, held) = (cut.report.readTwice, cut.report.heldAtMost)
            #expect(!readTwice, "\(kind)")
            #expect(cut.read < once + once / 10, "\(kind): the cut read \(cut.read) bytes, the scan alone \(once)")
            // A GOP or two of 2 s at 16 Mb/s (4 MB each), not the range.
            #expect(held > 0 && held < 12_000_000, "\(kind): held \(held) bytes at most")
        }
    }

    /// The clip written as the range is read is the clip written from the final plan after reading
    /// it all, packet for packet: exact and `--keyframe` into Matroska and MP4, `--edit-list`.
    /// With Opus sound too, whose start Matroska hides with CodecDelay (set in the clip's header
    /// before the range is read, from its first packets).
    @Test(arguments: ["aac", "libopus"])
    func theClipIsTheClipOfTheFinalPlan(sound: String) throws {
        let path = try #require(try Self.sources(remuxed: false, sound: sound)["mkv"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let size = try Self.size(path)
        let cases: [(String, CutPlan.Mode, CutPlan.Strategy)] = sound == "aac" ? [
            ("mkv", .exact, .spliceReencode), ("mkv", .keyframe, .spliceReencode), ("mp4", .exact, .spliceReencode),
            ("mp4", .keyframe, .spliceReencode), ("mp4", .exact, .editList),
        ] : [("mkv", .exact, .spliceReencode), ("mp4", .exact, .editList)]
        for (ext, mode, strategy) in cases {
            let label = "\(ext) \(mode) \(strategy)"
            let streamed = try Self.cut(path, into: ext, mode: mode, strategy: strategy)
            let again = try Self.cut(path, into: ext, mode: mode, strategy: strategy, window: 0)
            defer { for p in [streamed.clip, again.clip] { try? FileManager.default.removeItem(atPath: p) } }
            let (first, second) = (streamed.report.readTwice, again.report.readTwice)
            #expect(!first, "\(label)")
            #expect(second, "\(label)")
            #expect(again.read > size * 18 / 10, "\(label): read twice, \(again.read) bytes of \(size)")
            let hashes = try SkimmingScanTests.packetHashes(streamed.clip)
            #expect(hashes == (try SkimmingScanTests.packetHashes(again.clip)), "\(label)")
            #expect(hashes.split(separator: "\n").count > 1_400, "\(label)")
        }
    }
}
