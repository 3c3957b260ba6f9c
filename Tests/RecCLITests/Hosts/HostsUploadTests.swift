import Foundation
import Glibc
import Media
import Testing
import TestServers
import TestPool

/// Issue 23: `rec save --host … --upload DEST` keeps the clips on the box and has its session copy
/// them to DEST; a host save without `--upload` brings its clip back and has the box's session
/// copy it nowhere (`--no-upload`), even when that session copies every clip. The box is the
/// test's sshd; DEST is `rclone serve webdav` on loopback, which the box's rclone reaches through
/// the rclone.conf its logins name in RCLONE_CONFIG. This machine's rec has no rclone
/// configuration at all.
@Suite(.blocking) struct HostsUploadTests {
    /// The box, the WebDAV destination (UploadBox's), and this machine's side.
    final class Fixture {
        let here: BackgroundSessionTests.Sandbox
        let copies: UploadBox
        let server: SSHTestServer
        /// The box login's home folder: where a relative `-o` lands on the box.
        let home: String
        /// A folder of the box's user for clips saved on the box by an absolute path.
        let boxFolder: String

        init() throws {
            here = try BackgroundSessionTests.Sandbox()
            copies = try UploadBox()
            // The box's own temporary and state folders (its upload journal), so this test meets no
            // other's; rclone.conf stays readable (0644 in a 0755 folder).
            let account = try SSHTestServer.account()
            for name in ["box-tmp", "box-state", "box-files"] {
                let made = copies.path(name)
                try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: false)
                try #require(chown(made, account.uid, account.gid) == 0)
            }
            boxFolder = copies.path("box-files")
            server = try SSHTestServer(environment: [
                "PATH": try RemoteBox.prefix() + "/bin:/usr/bin:/bin", "TMPDIR": copies.path("box-tmp"),
                "XDG_STATE_HOME": copies.path("box-state"), "RCLONE_CONFIG": copies.path("rclone.conf"),
            ])
            home = try server.ssh("pwd").output.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        deinit { RemoteBox.stopAll(on: server) }

        /// `rec` here, reaching the box; RCLONE_CONFIG names no file, so rclone here knows no remote.
        func rec(_ arguments: [String]) throws -> RecBinary.Result {
            try HostsTests.rec(here, server, arguments, ["RCLONE_CONFIG": here.path("no-rclone.conf")])
        }

        /// Starts a stand-in camera session on the box (with `options`) and waits for 45 frames.
        func startOnBox(_ session: String, _ options: String = "") throws {
            let start = try server.ssh("rec start --session \(session) --source test:160x120@30 --no-file \(options)")
            try #require(start.status == 0, "rec start on the box: \(start.error)")
            let wait = try server.ssh("rec status --session \(session) --wait-frames 45 --timeout 60s")
            try #require(wait.status == 0, "session \(session) on the box: \(wait.error)")
        }

        /// Waits (on the destination folder's events; 90 s is a hang guard) until `name` has
        /// arrived with the size of the box's file of that name in `folder`.
        func waitForArrival(_ name: String, from folder: String) -> Bool {
            try? FileManager.default.createDirectory(atPath: copies.remote, withIntermediateDirectories: true)
            return Observe.until(watching: [copies.remote], timeout: 90) { copies.arrived(name, localFolder: folder) }
        }
    }

    /// The clips stay on the box under their BOX-SESSION names and its session copies them to
    /// DEST: the same bytes and frames arrive; nothing comes back here.
    @Test func uploadFromTheBoxInsteadOfBringingBack() throws {
        let box = try Fixture()
        try box.startOnBox("a")
        let folder = "hostup-\(UUID().uuidString.prefix(8))"
        let made = try box.server.ssh("mkdir \(folder)")
        try #require(made.status == 0, "\(made.error)")
        defer { _ = try? box.server.ssh("rm -rf \(folder)") }
        let onBox = box.home + "/" + folder
        let before = try FileManager.default.contentsOfDirectory(atPath: box.here.folder).sorted()

        let save = try box.rec(["save", "--host", box.server.url, "--all", "--last", "1s", "-o", folder + "/", "--upload", "dav:cams", "--json"])
        #expect(save.status == 0, "\(save.error)")
        let rows = HostsTests.json(save.output)
        #expect(rows.count == 1 && rows.first?["box"] as? String == "127.0.0.1" && rows.first?["session"] as? String == "a"
                && rows.first?["upload"] as? String == "dav:cams", "\(save.output)")
        let report = try #require(rows.first?["save"] as? [String: Any], "\(save.output)")
        #expect(report["path"] as? String == onBox + "/127.0.0.1-a.mp4", "\(report)")

        // One session by name, in words: its path on the box, and where it is queued.
        let text = try box.rec(["save", "--host", box.server.url, "--session", "a", "--last", "1s", "-o", folder + "/one.mkv", "--upload", "dav:cams"])
        #expect(text.status == 0, "\(text.error)")
        #expect(text.output.hasPrefix("a on 127.0.0.1: \(onBox)/one.mkv on the box, ") && text.output.contains(", queued for dav:cams"),
                "\(text.output)")

        #expect(box.waitForArrival("127.0.0.1-a.mp4", from: onBox) && box.waitForArrival("one.mkv", from: onBox), "\(box.copies.remoteFiles())")
        // Byte for byte and frame for frame the box's clips, and nothing else at DEST.
        try box.copies.expectArrivedWhole(["127.0.0.1-a.mp4", "one.mkv"], localFolder: onBox)
        #expect(try FrameReader.read(path: onBox + "/127.0.0.1-a.mp4").frames.count == report["frames"] as? Int)
        // Nothing came back: no clip, no hidden folder for arriving files.
        #expect(try FileManager.default.contentsOfDirectory(atPath: box.here.folder).sorted() == before)

        // A box that cannot save is reported, and the command fails.
        let missing = try box.rec(["save", "--host", box.server.url, "--all", "--last", "1s", "-o", "nowhere-\(folder)/", "--upload", "dav:cams"])
        #expect(missing.status == 1 && missing.output.contains("* on 127.0.0.1: failed: ") && missing.output.contains("does not exist"),
                "\(missing.output)\(missing.error)")
        let both = try box.rec(["save", "--host", box.server.url, "--all", "--last", "1s", "--upload", "dav:cams", "--no-upload"])
        #expect(both.status == 64 && both.error.contains("not both"), "\(both.error)")
    }

    /// The defect: a box session that copies every clip (its own `--upload`) queued the clip of a
    /// host save too, from the temporary folder that is removed once the clip is sent back, and
    /// then dropped it. Now the host save's clip comes back and the session copies only its own
    /// (and not one saved with `--no-upload` on the box either).
    @Test func aHostSaveIsNotCopiedByTheBoxSession() throws {
        let box = try Fixture()
        try box.startOnBox("b", "--upload dav:cams")
        let save = try box.rec(["save", "--host", box.server.url, "--session", "b", "--last", "1s", "-o", "back.mp4"])
        #expect(save.status == 0, "\(save.error)")
        #expect(try box.here.stamps("back.mp4").count >= 29)

        // A clip saved on the box with --no-upload is copied nowhere; one saved without it is
        // copied, after anything queued before it.
        let kept = try box.server.ssh("rec save --session b --last 1s --no-upload -o \(box.boxFolder)/kept.mp4")
        #expect(kept.status == 0, "\(kept.error)")
        let own = try box.server.ssh("rec save --session b --last 1s -o \(box.boxFolder)/own.mp4")
        try #require(own.status == 0, "\(own.error)")
        #expect(box.waitForArrival("own.mp4", from: box.boxFolder), "\(box.copies.remoteFiles())")
        try box.copies.expectArrivedWhole(["own.mp4"], localFolder: box.boxFolder)

        let log = (try? String(contentsOfFile: box.server.runtimeFolder + "/rec/b/log", encoding: .utf8)) ?? ""
        #expect(!log.contains("not copied") && !log.contains("deleted before it was copied"), "\(log)")
        let status = try box.server.ssh("rec status --session b --json")
        let extra = (try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any])?["extra"] as? [String: String] ?? [:]
        #expect(extra["upload_copied"] == "1" && extra["upload_waiting"] == "0" && extra["upload_error"] == nil, "\(extra)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: box.copies.path("box-tmp")).filter { $0.hasPrefix("rec-remote.") } == [])
    }
}
