import Foundation
import Media
import Testing
import TestPool

/// A recording on a disk that fills up: the file ends cleanly at its last complete fragment, the
/// message names the disk and what was kept, no partial file is left beside it, and a session
/// goes on in its ring so the newest frames can still be saved elsewhere.
///
/// The disk is a small tmpfs the test mounts; that needs root (CI runs as root). Elsewhere the
/// tests say they skipped.
@Suite(.blocking, .serialized, .enabled(if: SmallDisk.available, "needs root to mount a small tmpfs"))
struct DiskFullTests {
    @Test(arguments: ["mp4", "mkv"])
    func recordEndsCleanlyWhenTheDiskFills(ext: String) throws {
        let disk = try SmallDisk(kilobytes: 768)
        defer { disk.remove() }
        let path = disk.path + "/full." + ext
        let result = try RecBinary.run(["record", "--source", "test:640x480@30", "--pace", "off", "--frames", "3000", "-o", path])
        #expect(result.status == 1)
        #expect(result.error.contains("the disk holding \(disk.path) is full"), "\(result.error)")
        #expect(result.error.contains("was ended cleanly at"), "\(result.error)")
        // Nothing torn: every frame in the file decodes, in order from 0.
        let stamps = try FrameReader.read(path: path).frames.map(\.stamp)
        #expect(stamps.count > 10)
        #expect(stamps == (0..<stamps.count).map { Optional($0) })
        // Nothing else left on the disk (no hidden partial rewrite).
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path) == ["full." + ext])
    }

    @Test func aSessionGoesOnInItsRingAndSavesElsewhere() throws {
        let disk = try SmallDisk(kilobytes: 192)
        defer { disk.remove() }
        let box = try BackgroundSessionTests.Sandbox()
        let path = disk.path + "/session.mkv"
        let start = try box.rec(["start", "--session", "full", "--source", "test:640x480@30", "-o", path])
        try #require(start.status == 0, "\(start.error)")
        defer { _ = try? box.rec(["stop", "--session", "full"]) }
        // The session answers once it has an error to report: the disk filled.
        let waited = try box.rec(["status", "--json", "--session", "full", "--wait-error", "--timeout", "60s"])
        let status = (try JSONSerialization.jsonObject(with: Data(waited.output.utf8)) as? [String: Any]) ?? [:]
        #expect((status["last_error"] as? String)?.contains("the disk holding \(disk.path) is full") == true, "\(status)")
        #expect(status["state"] as? String == "recording", "the session goes on in its ring")
        let framesAtFull = status["frames"] as? Int ?? 0
        try box.waitForFrames(framesAtFull + 45, session: "full")
        // The newest frames, which never reached the file, are in the ring and save elsewhere.
        let clip = box.path("after-full.mp4")
        let save = try box.rec(["save", "--session", "full", "--last", "1s", "-o", clip])
        #expect(save.status == 0, "\(save.error)")
        let saved = try FrameReader.read(path: clip).frames.compactMap(\.stamp)
        #expect(saved.count == 30)
        #expect(saved.first.map { $0 > framesAtFull } == true, "the clip is from after the disk filled")
        #expect(BackgroundSessionTests.consecutive(saved.map { Optional($0) }))
        let stop = try box.rec(["stop", "--session", "full"])
        #expect(stop.status == 1 && (stop.output + stop.error).contains("is full"), "\(stop.output) \(stop.error)")
        let kept = try FrameReader.read(path: path).frames.map(\.stamp)
        #expect(kept.count > 10 && kept == (0..<kept.count).map { Optional($0) })
    }
}

/// A tmpfs of a few hundred kilobytes mounted on a fresh folder, for as long as a test needs it.
struct SmallDisk {
    let path: String

    static let available: Bool = {
        guard getuid() == 0, let probe = try? SmallDisk(kilobytes: 64) else { return false }
        probe.remove()
        return true
    }()

    init(kilobytes: Int) throws {
        path = try RecBinary.temporaryFolder()
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", path]
        mount.standardError = FileHandle.nullDevice
        try mount.run()
        mount.waitUntilExit()
        guard mount.terminationStatus == 0 else {
            try? FileManager.default.removeItem(atPath: path)
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    func remove() {
        let umount = Process()
        umount.executableURL = URL(fileURLWithPath: "/bin/umount")
        umount.arguments = ["-l", path]
        try? umount.run()
        umount.waitUntilExit()
        try? FileManager.default.removeItem(atPath: path)
    }
}
