import Foundation
import Testing
import TestServers
import TestPool

/// Issue 21: a camera rec cannot record says why and what to try next, in one `rec:` message and
/// no stack trace; and the password in a camera's URL is never shown, logged or put on a
/// command line.
@Suite(.blocking) struct NetworkErrorTests {
    typealias Sandbox = BackgroundSessionTests.Sandbox

    static let user = "camera", password = "p@ss word"

    /// The password as it may appear: as given and percent-encoded in the URL.
    static let secrets = [password, "p%40ss%20word", "\(user):"]

    static func expectNoSecret(_ text: String, _ what: String) {
        for secret in secrets { #expect(!text.contains(secret), "\(what) shows '\(secret)': \(text)") }
    }

    /// Wrong credentials, none, a path the server lacks, a refused port, a name that does not
    /// resolve: each is one clear message and the exit status for its kind, and no file.
    @Test func eachFailureSaysWhatToTry() throws {
        let server = try RTSPTestServer(.init(credentials: (Self.user, Self.password)))
        let refused = try LoopbackPort.free()
        let cases: [(url: String, status: Int32, says: String)] = [
            (server.url(.h264, user: Self.user, password: "wrong-\(Self.password)"), 64, "refused the user name and password in the URL (401 Unauthorized)"),
            (server.url(.h264), 64, "needs a user name and password (401 Unauthorized)"),
            (server.authorizedURL(.h264).replacingOccurrences(of: "/h264", with: "/no-such-stream"), 64, "has no such stream (404 Not Found)"),
            ("rtsp://127.0.0.1:\(refused)/h264", 1, "refused the connection; check the port"),
            ("rtsp://no-such-camera.invalid/h264", 1, "cannot find the camera's host 'no-such-camera.invalid'"),
        ]
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (url, status, says) in cases {
            let run = try RecBinary.run(["record", "--source", url, "--frames", "30", "-o", "clip.mp4"], in: folder)
            #expect(run.status == status && run.error.contains(says), "\(url): exit \(run.status), \(run.error)")
            #expect(run.error.split(separator: "\n").allSatisfy { $0.hasPrefix("rec: ") }, "\(run.error)")
            #expect(!run.error.contains("Fatal error") && !run.error.contains("Stack dump"))
            Self.expectNoSecret(run.output + run.error, url)
            #expect(!FileManager.default.fileExists(atPath: folder + "/clip.mp4"), "\(url) left a file")
        }
    }

    /// A session on a camera with a password: its status, the list of sessions, its log, its
    /// process's command line and its outage messages never show it.
    @Test func credentialsNeverShow() throws {
        let server = try RTSPTestServer(.init(credentials: (Self.user, Self.password)))
        let box = try Sandbox()
        let start = try box.rec(["start", "--session", "door", "--source", server.authorizedURL(.h264), "-o", "rec.mp4"])
        try #require(start.status == 0, "\(start.error)")
        Self.expectNoSecret(start.output + start.error, "rec start")
        let waited = try box.rec(["status", "--session", "door", "--wait-frames", "30", "--timeout", "30s"])
        #expect(waited.status == 0, "\(waited.error)")
        // An outage puts the URL into the last error and the log.
        server.kill()
        let away = try box.rec(["status", "--session", "door", "--wait-error", "--timeout", "20s", "--json"])
        #expect(away.output.contains("ended the stream"), "\(away.output)")
        var shown = [waited.output, away.output]
        for arguments in [["status", "--session", "door"], ["status", "--session", "door", "--json"], ["status", "--all"],
                          ["status", "--all", "--json"]] {
            let run = try box.rec(arguments)
            #expect(run.status == 0 && run.output.contains("127.0.0.1:\(server.port)"), "\(arguments): \(run.output) \(run.error)")
            shown.append(run.output + run.error)
        }
        let folder = box.folder + "/run/rec/door"
        let pid = try #require(Int32(try String(contentsOfFile: folder + "/pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        let commandLine = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))
        shown.append(String(decoding: commandLine.map { $0 == 0 ? 32 : $0 }, as: UTF8.self))
        try server.restart()
        try box.waitForFrames(60, session: "door")
        shown.append(try String(contentsOfFile: folder + "/log", encoding: .utf8))
        shown.append(try String(contentsOfFile: folder + "/session.json", encoding: .utf8))
        let stop = try box.rec(["stop", "--session", "door"])
        shown.append(stop.output + stop.error)
        for (n, text) in shown.enumerated() { Self.expectNoSecret(text, "output \(n)") }
        #expect(shown.joined().contains("rtsp://***@127.0.0.1:\(server.port)/h264"), "the user is shown as ***")
    }
}
