import Foundation
import Media
import Testing
import TestServers
import TestPool

/// Issue 23, several boxes as one: `rec status`, `save`, `stop` with `--host`, against this box
/// and a second one, an sshd on loopback whose user runs rec from its own install. Serialized:
/// the box's temporary folders are checked for leftovers.
@Suite(.blocking, .serialized) struct HostsTests {
    typealias Sandbox = BackgroundSessionTests.Sandbox
    static let names = ["a", "b"]

    static func rec(_ box: Sandbox, _ server: SSHTestServer, _ arguments: [String], _ extra: [String: String] = [:]) throws -> RecBinary.Result {
        try RecBinary.run(arguments, in: box.folder, environment: RemoteBox.environment(box, server, extra))
    }

    static func json(_ text: String) -> [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]) ?? []
    }

    /// Two sessions here and two on the box: one save of the last 2 s gives four clips, each every
    /// frame of the same wall-clock range, named by box and session; nothing is left on the box.
    @Test func oneSaveAcrossTwoBoxesWithTwoSessionsEach() throws {
        let box = try Sandbox()
        let server = try RemoteBox.start()
        defer { RemoteBox.stopAll(on: server) }
        try ManySessionsTests.startSessions(Self.names, in: box, frames: 90)
        try RemoteBox.startSessions(Self.names, on: server, frames: 90)
        let hosts = ["--host", "local", "--host", server.url]

        let status = try Self.rec(box, server, ["status", "--all", "--json"] + hosts)
        #expect(status.status == 0, "\(status.error)")
        let rows = Self.json(status.output)
        #expect(rows.map { "\($0["box"] ?? "?")/\($0["session"] ?? "?")" } == ["local/a", "local/b", "127.0.0.1/a", "127.0.0.1/b"],
                "\(status.output)")
        #expect(rows.allSatisfy { $0["state"] as? String == "recording" && ($0["frames"] as? Int ?? 0) >= 90 }, "\(rows)")
        // "hosts" in config.json: the boxes of --all when no --host is given, and never those of a
        // command aimed at one session.
        let config = box.path("config")
        try FileManager.default.createDirectory(atPath: config + "/rec", withIntermediateDirectories: true)
        try #"{"hosts": ["local", "\#(server.url)"]}"#.write(toFile: config + "/rec/config.json", atomically: true, encoding: .utf8)
        let configured = try Self.rec(box, server, ["status", "--all", "--json"], ["XDG_CONFIG_HOME": config])
        #expect(Self.json(configured.output).map { $0["box"] as? String } == ["local", "local", "127.0.0.1", "127.0.0.1"],
                "\(configured.output)\(configured.error)")
        let one = try Self.rec(box, server, ["status", "--session", "a", "--json"], ["XDG_CONFIG_HOME": config])
        #expect(one.status == 0 && one.output.hasPrefix("{") && one.output.contains(#""session":"a""#), "\(one.output)")
        // A command for the box's camera runs there: the stand-in has no controls, and says so.
        let control = try Self.rec(box, server, ["control", "--session", "a", "--host", server.url])
        #expect(control.status == 1 && control.output.contains("127.0.0.1: failed: ") && control.output.contains("has no camera controls"),
                "\(control.output)")

        let table = try Self.rec(box, server, ["status", "--all"] + hosts)
        let lines = table.output.split(separator: "\n")
        #expect(lines.first?.hasPrefix("BOX        SESSION  STATE") == true && lines.count == 5, "\(table.output)")

        // The latest frame of session a on each box, sent back here.
        let snapshot = try Self.rec(box, server, ["snapshot", "--session", "a", "-o", "still-%s.jpg"] + hosts)
        #expect(snapshot.status == 0, "\(snapshot.error)")
        #expect(snapshot.output.hasPrefix("local: saved \(box.path("still-local-a.jpg")) (320x180, frame at "), "\(snapshot.output)")
        #expect(snapshot.output.contains("\n127.0.0.1: saved \(box.path("still-127.0.0.1-a.jpg")) (320x180, "), "\(snapshot.output)")
        for name in ["still-local-a.jpg", "still-127.0.0.1-a.jpg"] {
            let probe = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", box.path(name)])
            #expect(String(decoding: probe.stdout, as: UTF8.self).hasPrefix("mjpeg,320,180"), "\(name)")
        }

        try FileManager.default.createDirectory(atPath: box.path("clips"), withIntermediateDirectories: false)
        let save = try Self.rec(box, server, ["save", "--all", "--last", "2s", "-o", "clips/", "--json"] + hosts)
        #expect(save.status == 0, "\(save.error)")
        let clips = Self.json(save.output)
        #expect(clips.map { "\($0["box"] ?? "?")-\($0["session"] ?? "?")" } == ["local-a", "local-b", "127.0.0.1-a", "127.0.0.1-b"],
                "\(save.output)")
        var starts: [Double] = [], ends: [Double] = [], counts: [Int] = []
        for clip in clips {
            let name = "\(clip["box"] as? String ?? "?")-\(clip["session"] as? String ?? "?")"
            let report = try #require(clip["save"] as? [String: Any], "\(clip)")
            #expect(report["path"] as? String == box.path("clips/\(name).mp4"))
            let wall = try #require(clip["saved_unix"] as? [String: Double], "\(clip)")
            starts.append(try #require(wall["from"]))
            ends.append(try #require(wall["to"]))
            // Every frame of the range, as the stand-in camera numbered them, none lost or repeated.
            let stamps = try box.stamps("clips/\(name).mp4")
            #expect(stamps.count == report["frames"] as? Int, "\(name)")
            let dropped = report["dropped_in_range"] as? Int ?? 0
            if dropped == 0 {
                #expect(BackgroundSessionTests.consecutive(stamps), "\(name): \(stamps)")
                // Exactly the frames of the range the session reports (the stand-in's frame n is at n/30 s).
                let range = try #require(report["saved"] as? [String: Double], "\(report)")
                #expect(stamps.first == Int(((range["from"] ?? -1) * 30).rounded()), "\(name): \(range) \(stamps)")
                #expect(stamps.last == Int(((range["to"] ?? -1) * 30).rounded()) - 1, "\(name): \(range) \(stamps)")
            }
            counts.append(stamps.count + dropped)
        }
        // The same 2 s on both boxes, cut by each session's own clock: the same length within a
        // frame, and the same wall-clock instants within a frame.
        let frame = 1.0 / 30 + 0.002
        #expect((counts.max() ?? 0) - (counts.min() ?? 0) <= 1 && counts.allSatisfy { (59...61).contains($0) }, "\(counts)")
        #expect((starts.max() ?? 0) - (starts.min() ?? 0) <= frame, "\(starts)")
        #expect((ends.max() ?? 0) - (ends.min() ?? 0) <= frame, "\(ends)")
        // Nothing but the clips here, nothing left in the box's /tmp.
        #expect(try FileManager.default.contentsOfDirectory(atPath: box.path("clips")).sorted()
                == ["127.0.0.1-a.mp4", "127.0.0.1-b.mp4", "local-a.mp4", "local-b.mp4"])
        #expect(try RemoteBox.leftovers(on: server) == [])

        // Again into the same folder: with --all the names are known only when the boxes answer,
        // so a taken name gets -1 and a warning; nothing is overwritten, nothing lost.
        let twice = try Self.rec(box, server, ["save", "--all", "--last", "1s", "-o", "clips/"] + hosts)
        #expect(twice.status == 0 && twice.error.contains("rec: warning: \(box.path("clips/local-a.mp4")) exists"), "\(twice.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: box.path("clips")).filter { $0.hasSuffix("-1.mp4") }.sorted()
                == ["127.0.0.1-a-1.mp4", "127.0.0.1-b-1.mp4", "local-a-1.mp4", "local-b-1.mp4"])
        #expect(try box.stamps("clips/local-a.mp4").count == (clips.first?["save"] as? [String: Any])?["frames"] as? Int)

        // By name: a taken name is refused before anything is saved.
        let again = try Self.rec(box, server, ["save", "--session", "a", "--from", "-1s", "--to", "now", "-o", "clips/"] + hosts)
        #expect(again.status == 64 && again.error.contains("already exists"), "\(again.error)")
        let text = try Self.rec(box, server, ["save", "--session", "a", "--last", "1s", "-o", "one-%s.mkv", "--host", server.url])
        #expect(text.status == 0, "\(text.error)")
        #expect(text.output.hasPrefix("a on 127.0.0.1: \(box.path("one-127.0.0.1-a.mkv")), "), "\(text.output)")
        #expect(try box.stamps("one-127.0.0.1-a.mkv").count >= 29)

        // Stopped on the box through --host; the box's own status says it is gone.
        let stop = try Self.rec(box, server, ["stop", "--session", "b", "--host", server.url])
        #expect(stop.status == 0 && stop.output.hasPrefix("127.0.0.1:\nstopped;"), "\(stop.output)\(stop.error)")
        let after = try server.ssh("rec status --all --json")
        #expect(Self.json(after.output).map { $0["session"] as? String } == ["a"], "\(after.output)")
        for name in Self.names { try box.rec(["stop", "--session", name]) }
    }

    /// A box whose sshd is frozen (SIGSTOP) is reported as not answering and holds nobody up:
    /// this box's sessions are listed and saved.
    @Test func aFrozenBoxIsReportedAndTheOthersAnswer() throws {
        let box = try Sandbox()
        let server = try RemoteBox.start()
        defer { server.resume(); RemoteBox.stopAll(on: server) }
        try ManySessionsTests.startSessions(["a"], in: box, frames: 45)
        server.pause()
        let hosts = ["--host", "local", "--host", server.url]
        let status = try Self.rec(box, server, ["status", "--all", "--json", "--timeout", "2s"] + hosts)
        #expect(status.status == 1)
        let rows = Self.json(status.output)
        #expect(rows.count == 2 && rows.first?["session"] as? String == "a" && rows.first?["state"] as? String == "recording", "\(rows)")
        let frozen = try #require(rows.last, "\(status.output)")
        #expect(frozen["box"] as? String == "127.0.0.1" && frozen["state"] as? String == "not-answering")
        #expect((frozen["last_error"] as? String)?.contains("did not answer within 2 s") == true, "\(frozen)")

        let save = try Self.rec(box, server, ["save", "--all", "--last", "1s", "-o", "clip-%s.mp4"] + hosts)
        #expect(save.status == 1)
        #expect(save.output.contains("a on local: \(box.path("clip-local-a.mp4")), "), "\(save.output)")
        #expect(save.output.contains("* on 127.0.0.1: failed: \(server.user)@127.0.0.1:\(server.port) did not answer"), "\(save.output)")
        #expect(save.error.contains("1 of 2 clips were not saved"), "\(save.error)")
        #expect(try box.stamps("clip-local-a.mp4").count >= 29)
        try box.rec(["stop", "--session", "a"])
    }

    /// Each failure says what to try next: a refused key, a box without rec, an unknown host, a
    /// password in the URL (refused before anything runs, and never repeated).
    @Test func errorsSayWhatToTryNext() throws {
        let box = try Sandbox()
        let server = try SSHTestServer(environment: ["PATH": "/usr/bin:/bin"])
        let bare = try server.ssh("command -v rec")
        try #require(bare.status != 0, "this box has a rec of its own: \(bare.output)")

        let missing = try Self.rec(box, server, ["stop", "--host", server.url])
        #expect(missing.status == 1)
        #expect(missing.output.contains("127.0.0.1: failed: rec not found on \(server.user)@127.0.0.1:\(server.port)"), "\(missing.output)")
        #expect(missing.output.contains("set REC_REMOTE"), "\(missing.output)")

        // Another key than the one the box knows.
        let other = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: other) }
        try Tool.run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", other + "/key"])
        try String(contentsOfFile: server.clientConfig, encoding: .utf8).replacingOccurrences(of: server.identityFile, with: other + "/key")
            .write(toFile: other + "/ssh_config", atomically: true, encoding: .utf8)
        let refused = try Self.rec(box, server, ["status", "--all", "--json", "--host", server.url], ["REC_SSH_CONFIG": other + "/ssh_config"])
        #expect(refused.status == 1)
        let row = try #require(Self.json(refused.output).first, "\(refused.output)")
        #expect((row["last_error"] as? String)?.contains("ssh refused the login to \(server.user)@127.0.0.1:\(server.port): check that "
            + "'ssh -p \(server.port) \(server.user)@127.0.0.1 true' works without a password (set a key up with ssh-copy-id") == true, "\(row)")

        let unknown = try Self.rec(box, server, ["status", "--session", "a", "--host", "ssh://rec@nowhere.invalid"])
        #expect(unknown.status == 1 && unknown.output.contains("unknown host 'nowhere.invalid'"), "\(unknown.output)")

        let password = try Self.rec(box, server, ["save", "--all", "--last", "1s", "--host", "ssh://rec:hunter2@\(server.url.dropFirst(6))"])
        #expect(password.status == 64 && password.error.contains("put no password in it") && !password.error.contains("hunter2"),
                "\(password.error)")
    }
}
