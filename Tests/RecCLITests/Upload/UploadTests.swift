import Foundation
import Glibc
import RecCore
import Testing
import TestServers
import TestPool

/// `--upload` (issue 23) through the real binary and real rclone, to a real WebDAV server on
/// loopback (`rclone serve webdav`) and to a local folder: every file arrives once, whole, under
/// its final name, and the errors say what to try.
@Suite(.blocking) struct UploadTests {
    @Test func recordCopiesEverySegmentInOrderAndWhole() throws {
        let box = try UploadBox()
        let r = try box.rec(["record", "--source", "test:320x240@30", "--pace", "off", "--frames", "150",
                             "--segment", "2s", "-o", "X.mp4", "--upload", "dav:cams"])
        #expect(r.status == 0, "\(r.error)")
        let files = box.local("X-")
        #expect(files.count == 3)
        try box.expectArrivedWhole(files)
        #expect(!box.remoteFiles().contains { $0.contains("rec-partial") }, "\(box.remoteFiles())")
        // In the order they were made: each copy is reported as it lands.
        let copied = r.error.split(separator: "\n").filter { $0.contains("copied ") }
        #expect(copied.count == 3 && zip(copied, files).allSatisfy { $0.contains($1) }, "\(r.error)")
        // The queue on disk is empty: nothing is left for a next run.
        #expect(UploadBox.queue(journal: box.path(".X.mp4.rec-upload")).entries.isEmpty)
    }

    /// A local (or mounted) folder is a destination too; saves of a session go there as well,
    /// `rec save --upload` to a destination of its own.
    @Test func aSessionCopiesItsFileAndClipsAndASaveNamesItsOwnDestination() throws {
        let box = try UploadBox()
        let mounted = box.path("mounted")
        try FileManager.default.createDirectory(atPath: mounted, withIntermediateDirectories: true)
        try #require(try box.rec(["start", "--source", "test:320x240@30", "-o", "rec.mkv", "--upload", "dav:cams"]).status == 0)
        let pid = try box.pid()
        let exit = Observe.exit(of: pid)
        let ready = try box.rec(["status", "--json", "--wait-frames", "45", "--timeout", "60s"])
        #expect(ready.status == 0, "\(ready.error)")
        // A remote rclone does not know is refused before anything is written.
        let refused = try box.rec(["save", "--last", "1s", "-o", "bad.mp4", "--upload", "nosuch:x"])
        #expect(refused.status == 64 && refused.error.contains("rclone config"), "\(refused.error)")
        #expect(!FileManager.default.fileExists(atPath: box.path("bad.mp4")))
        let save = try box.rec(["save", "--from", "0.5s", "--to", "1s", "-o", "clip.mp4", "--upload", mounted])
        #expect(save.status == 0, "\(save.error)")
        #expect(box.waitForArrival(["clip.mp4"]), "\(box.log())")
        #expect(Observe.until(watching: [mounted]) { FileManager.default.fileExists(atPath: mounted + "/clip.mp4") })
        #expect(box.waitForLog("copied clip.mp4 to \(mounted)"), "\(box.log())")
        let status = try box.rec(["status"])
        #expect(status.output.contains("upload   dav:cams") && status.output.contains("last clip.mp4"), "\(status.output)")
        try #require(try box.rec(["stop"]).status == 0)
        // The session copies its finished file before it exits.
        #expect(exit?.wait(timeout: .seconds(60)) == true)
        try box.expectArrivedWhole(["clip.mp4", "rec.mkv"])
        #expect(FileManager.default.contentsEqual(atPath: box.path("clip.mp4"), andPath: mounted + "/clip.mp4"))
    }

    @Test func aRemoteRcloneDoesNotKnowIsAUsageErrorNamingRcloneConfig() throws {
        let box = try UploadBox()
        let r = try box.rec(["record", "--source", "test", "--frames", "5", "-o", "x.mp4", "--upload", "nosuch:cams"])
        #expect(r.status == 64)
        #expect(r.error.hasPrefix("rec: ") && r.error.contains("nosuch") && r.error.contains("rclone config"), "\(r.error)")
        #expect(!FileManager.default.fileExists(atPath: box.path("x.mp4")))
        let s = try box.rec(["start", "--source", "test", "-o", "y.mp4", "--upload", "nosuch:cams"])
        #expect(s.status == 64 && s.error.contains("rclone config"), "\(s.error)")
        #expect(try box.rec(["status"]).status != 0)
    }

    /// Refused credentials are said at once, in rclone's words and without the password; the
    /// recording goes on (rclone's exit status does not tell a refusal from a dead link, and a
    /// recorder must not stop for either), and the file waits in the queue for the next run.
    @Test func refusedCredentialsAreReportedWithoutThePasswordAndTheFileWaits() throws {
        let box = try UploadBox()
        try box.server.writeConfig(to: box.path("wrong.conf"), password: "not-the-password")
        let run = ["record", "--source", "test", "--frames", "5", "--segment", "1h", "-o", "x.mp4", "--upload", "dav:cams"]
        let r = try box.rec(run, environment: ["RCLONE_CONFIG": box.path("wrong.conf")])
        #expect(r.status == 0)
        #expect(r.error.contains("cannot reach --upload dav:cams") && r.error.contains("401") && r.error.contains("rclone lsd"), "\(r.error)")
        #expect(r.error.contains("1 files are not copied yet"), "\(r.error)")
        #expect(!r.error.contains(box.server.password) && !r.error.contains("not-the-password"))
        let first = box.local("x-")
        #expect(UploadBox.queue(journal: box.path(".x.mp4.rec-upload")).entries.map(\.name) == first)
        // The next run with the same -o and the right configuration copies it first.
        let again = try box.rec(run)
        #expect(again.status == 0 && again.error.contains("upload queue resumed"), "\(again.error)")
        #expect(box.local("x-").count == 2)
        try box.expectArrivedWhole(box.local("x-"))
        // An on-the-fly remote with the password in it: never shown.
        let fly = ":webdav,url='\(box.server.url)',user=rec,pass=hunter2222:cams"
        let f = try box.rec(["record", "--source", "test", "--frames", "5", "-o", "y.mp4", "--upload", fly])
        #expect(f.error.contains("cannot reach") && !f.error.contains("hunter2222") && f.error.contains("***"), "\(f.error)")
    }

    @Test func withoutRcloneTheErrorSaysToInstallIt() throws {
        let box = try UploadBox()
        let r = try box.rec(["record", "--source", "test", "--frames", "5", "-o", "x.mp4", "--upload", "dav:cams"],
                            environment: ["PATH": "/nonexistent"])
        #expect(r.status == 1 && r.error.contains("apt install rclone"), "\(r.error)")
    }

    @Test(arguments: [(["--upload-limit", "2M"], "give --upload too"), (["--upload", "dav:cams", "--upload-limit", "fast"], "not a rate"),
                      (["--upload", "bad*name:x"], "cannot be an rclone remote")])
    func badOptionsAreUsageErrors(options: [String], message: String) throws {
        let box = try UploadBox()
        let r = try box.rec(["record", "--source", "test", "--frames", "5", "-o", "x.mp4"] + options)
        #expect(r.status == 64 && r.error.contains(message), "\(r.error)")
    }
}
