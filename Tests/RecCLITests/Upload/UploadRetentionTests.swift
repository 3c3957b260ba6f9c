import Foundation
import Glibc
import Testing
import TestServers
import TestPool

/// `--max-disk` with `--upload`: a file not yet copied is kept until its copy arrives, unless the
/// disk would otherwise fill, and then rec says so.
@Suite(.blocking, .serialized) struct UploadRetentionTests {
    @Test func maxDiskKeepsFilesUntilTheirCopyArrives() throws {
        let box = try UploadBox()
        box.server.kill()
        try FileManager.default.createDirectory(atPath: box.remote, withIntermediateDirectories: true)
        let start = try box.rec(["start", "--source", "test:160x120@30", "--segment", "1s", "--max-disk", "1K",
                                 "-o", "seg.mp4", "--upload", "dav:cams"])
        try #require(start.status == 0, "\(start.error)")
        #expect(start.error.contains("cannot reach --upload dav:cams"), "\(start.error)")
        // Without --upload only the newest would be left; with nothing copied, none goes. The
        // finished segments and their sizes are the queue's (a listing can catch the newest but
        // one still being finished, at a size it does not end with).
        let journal = box.path(".seg.mp4.rec-upload")
        #expect(Observe.until(watching: [box.folder]) { UploadBox.queue(journal: journal).entries.count >= 4 })
        let queued = UploadBox.queue(journal: journal).entries
        let held = queued.map(\.name)
        let sizes = Dictionary(uniqueKeysWithValues: queued.map { ($0.name, $0.bytes) })
        for name in held { #expect(UploadBox.size(box.path(name)) == sizes[name], "\(name) is kept, whole") }
        // Back: the copies arrive, and retention deletes each once it is copied (at a later
        // segment's finish).
        try box.server.restart()
        #expect(Observe.until(watching: [box.folder, box.remote]) { held.allSatisfy { !FileManager.default.fileExists(atPath: box.path($0)) } },
                "\(box.local("seg-")) \(box.log())")
        for name in held {
            #expect(UploadBox.size(box.remote + "/" + name) == sizes[name], "\(name)")
        }
        #expect(!box.log().contains("not yet copied"))
        try UploadOutageTests.stop(box)
    }

    /// On a disk about to fill (a 64 MiB tmpfs: less free than rec's 256 MiB reserve), files not
    /// yet copied go all the same, and rec says so in status and the log. Needs root to mount.
    @Test func aFillingDiskDeletesUncopiedFilesAndSaysSo() throws {
        let box = try UploadBox()
        let small = box.path("small")
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: true)
        guard getuid() == 0, UploadOutageTests.mount(["-t", "tmpfs", "-o", "size=64m", "tmpfs", small]) else {
            print("UploadRetentionTests: skipped the filling-disk test: mounting a small tmpfs needs root")
            return
        }
        defer { _ = UploadOutageTests.mount(["-l", small], umount: true) }
        box.server.kill()
        try #require(try box.rec(["start", "--source", "test:160x120@30", "--segment", "1s", "--max-disk", "1K",
                                  "-o", small + "/seg.mp4", "--upload", "dav:cams"]).status == 0)
        #expect(box.waitForLog("not yet copied off the box"), "\(box.log())")
        let status = try box.rec(["status", "--json"])
        let extra = (try RecFolder.object(status.output))["extra"] as? [String: String] ?? [:]
        #expect(Int(extra["upload_deleted_uncopied"] ?? "") ?? 0 >= 1 && extra["upload_warning"]?.contains("disk") == true, "\(extra)")
        #expect(try box.rec(["status"]).output.contains("warning: the disk was about to fill"))
        try box.server.restart()
        try UploadOutageTests.stop(box)
    }
}
