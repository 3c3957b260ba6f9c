import Foundation
import Media
import Testing
import TestPool

/// `--segment`, `--keep`, `--max-disk` through the real binary.
@Suite(.blocking) struct SegmentTests {
    /// The segment files in the folder, oldest first (their names sort by start time).
    static func segments(_ folder: RecFolder, prefix: String) throws -> [String] {
        try folder.contents().filter { $0.hasPrefix(prefix) }
    }

    @Test func recordCutsAFileEverySegmentOnKeyframesWithContinuousFrames() throws {
        let folder = try RecFolder()
        let r = try folder.rec(["record", "--source", "test:320x240@30", "--pace", "off", "--frames", "150",
                                "--segment", "2s", "-o", "X.mp4", "--json"])
        #expect(r.status == 0, "\(r.error)")
        let files = try Self.segments(folder, prefix: "X-")
        // Keyframes every second: boundaries at 2 s and 4 s give 60 + 60 + 30 frames.
        #expect(files.count == 3)
        var all: [Int?] = []
        for name in files {
            let report = try FrameReader.read(path: folder.file(name))
            #expect(report.frames.first?.isKeyframe == true, "\(name) does not start on a keyframe")
            #expect(report.frames.first?.time == .zero, "\(name) does not start at 0")
            all += report.frames.map(\.stamp)
        }
        #expect(all == RecFolder.stamps(0..<150))
        #expect(try FrameReader.read(path: folder.file(files[0])).frames.count == 60)
        let summary = try RecFolder.object(r.output)
        #expect(summary["segments"] as? Int == 3)
        #expect((summary["path"] as? String)?.hasSuffix(files[2]) == true)
    }

    /// Stopped right after a rotation: the last segment holds one frame, the keyframe that started
    /// it, and reads back with it (it read back empty in MP4 and MOV: issue 39).
    @Test(arguments: ["mp4", "mov", "mkv"])
    func aLastSegmentOfOneFrameKeepsIt(ext: String) throws {
        let folder = try RecFolder()
        let r = try folder.rec(["record", "--source", "test:160x120@30", "--pace", "off", "--frames", "121",
                                "--segment", "2s", "-o", "X.\(ext)"])
        #expect(r.status == 0, "\(r.error)")
        let files = try Self.segments(folder, prefix: "X-")
        let frames = try files.map { try FrameReader.read(path: folder.file($0)).frames.map(\.stamp) }
        #expect(frames.map(\.count) == [60, 60, 1], "\(files)")
        #expect(frames.flatMap { $0 } == RecFolder.stamps(0..<121))
    }

    @Test func aStrftimePatternNamesSegmentsAndTakenNamesGetANumber() throws {
        let folder = try RecFolder()
        // A pattern without seconds: all three segments start in the same minute or two.
        let r = try folder.rec(["record", "--source", "test:320x240@30", "--pace", "off", "--frames", "150",
                                "--segment", "2s", "-o", "cam-%Y%m%d-%H%M.mkv"])
        #expect(r.status == 0, "\(r.error)")
        let files = try Self.segments(folder, prefix: "cam-")
        #expect(files.count == 3)
        #expect(files.allSatisfy { $0.hasSuffix(".mkv") && $0.count >= "cam-20261201-1403.mkv".count })
        #expect(Set(files).count == 3)
        let stamps = try files.sorted { $0.count < $1.count || ($0.count == $1.count && $0 < $1) }
            .flatMap { try folder.stamps($0) }
        #expect(stamps.sorted { ($0 ?? 0) < ($1 ?? 0) } == RecFolder.stamps(0..<150))
    }

    @Test func maxDiskDeletesTheOldestAndNeverTheCurrent() throws {
        let folder = try RecFolder()
        try "keep me".write(toFile: folder.file("X-mine.txt"), atomically: true, encoding: .utf8)
        let r = try folder.rec(["record", "--source", "test:320x240@30", "--pace", "off", "--frames", "150",
                                "--segment", "2s", "--max-disk", "1K", "-o", "X.mp4"])
        #expect(r.status == 0, "\(r.error)")
        // Every finished segment is over 1 KiB, so only the newest (frames 120..<150) is left,
        // and files the recording did not make are untouched.
        let files = try Self.segments(folder, prefix: "X-")
        #expect(files.count == 2)
        #expect(files.contains("X-mine.txt"))
        let kept = try #require(files.first { $0.hasSuffix(".mp4") })
        #expect(try folder.stamps(kept) == RecFolder.stamps(120..<150))
    }

    @Test(arguments: [
        (["--segment", "0s"], "--segment"), (["--segment", "500ms"], "--segment"), (["--segment", "40d"], "--segment"),
        (["--segment", "-1h"], "--segment"), (["--keep", "7d"], "need --segment"), (["--max-disk", "1G"], "need --segment"),
        (["--segment", "1h", "--max-disk", "0"], "size"), (["--segment", "1h", "--keep", "soon"], "--keep"),
    ])
    func badValuesAreUsageErrors(options: [String], message: String) throws {
        let folder = try RecFolder()
        let r = try folder.rec(["record", "--source", "test", "--frames", "1", "-o", "x.mp4"] + options)
        #expect(r.status == 64)
        #expect(r.error.hasPrefix("rec: ") && r.error.contains(message), "\(r.error)")
        #expect(try folder.contents().isEmpty)
    }

    @Test func aPatternFieldInTheFolderIsAUsageError() throws {
        let folder = try RecFolder()
        let r = try folder.rec(["record", "--source", "test", "--frames", "1", "--segment", "1h", "-o", "%Y/x.mp4"])
        #expect(r.status == 64)
        #expect(r.error.contains("file name only"))
    }
}
