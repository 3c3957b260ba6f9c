import Foundation
import Media
import Testing
import TestServers
import TestPool

/// Issue 42, the box's review server over plain HTTP: who gets in with which token, what it
/// passes through to the sessions, and an export of several cameras whose range reaches into the
/// future, checked frame by frame.
@Suite(.blocking, .serialized) struct ReviewServerTests {
    typealias Sandbox = BackgroundSessionTests.Sandbox

    @Test func theWatchTokenWatchesTheExportTokenExportsAndNothingElseGetsIn() throws {
        let sandbox = try Sandbox()
        let box = try ReviewBox(sandbox: sandbox)
        try box.startCamera("front")
        let plain = try sandbox.rec(["start", "--session", "plain", "--source", "test:160x120@10", "--no-file", "--buffer", "5s"])
        try #require(plain.status == 0, "\(plain.error)")
        let mode = try FileManager.default.attributesOfItem(atPath: sandbox.folder + "/run/rec/.review/export-token")[.posixPermissions] as? Int
        #expect(mode == 0o600)

        // No token, a wrong one, a wrong Host: refused.
        #expect(try box.request("GET", "/", token: nil).status == 401)
        #expect(try box.request("GET", "/api/box", token: String(repeating: "0", count: 64)).status == 401)
        #expect(try box.request("GET", "/cam/front/api/live", token: nil).status == 401)
        #expect(try box.request("GET", "/api/box", token: box.watchToken, headers: ["Host": "evil.example:\(box.port)"]).status == 421)
        // The watch link: the page, its cookie, the cameras, a camera's reads through the box.
        let page = try box.request("GET", "/?token=" + box.watchToken, token: nil)
        #expect(page.status == 200 && page.text.contains("rec review") && page.text.contains("ROLE=\"watch\""))
        #expect(page.headers["set-cookie"]?.hasPrefix("rec_review=\(box.watchToken);") == true)
        let cameras = try box.request("GET", "/api/box", token: nil, headers: ["Cookie": "rec_review=\(box.watchToken)"]).json
        #expect(cameras["role"] as? String == "watch")
        let list = cameras["cameras"] as? [[String: Any]] ?? []
        #expect(list.map { $0["name"] as? String } == ["front", "plain"] && list.map { $0["live"] as? Bool } == [true, false], "\(cameras)")
        let live = try box.request("GET", "/cam/front/api/live", token: box.watchToken)
        #expect(live.status == 200 && live.json["codec"] as? String == "h264", "\(live.text)")
        #expect(try box.request("GET", "/cam/plain/api/live", token: box.watchToken).status == 409)
        #expect(try box.request("GET", "/cam/nobody/api/live", token: box.watchToken).status == 404)
        // Only reads pass through: a session's save is not reachable through the box.
        #expect(try box.request("GET", "/cam/front/api/save", token: box.watchToken).status == 404)
        #expect(try box.request("POST", "/cam/front/api/save", token: box.exportToken, body: "{}").status == 405)

        // Exports: the watch token may not; a forged request (cookie only, another site) may not.
        let body = #"{"from": \#(Date().timeIntervalSince1970 - 2), "to": \#(Date().timeIntervalSince1970 - 1), "cameras": ["front"]}"#
        #expect(try box.request("POST", "/api/export", token: box.watchToken, body: body).status == 403)
        #expect(try box.request("GET", "/api/exports", token: box.watchToken).status == 403)
        #expect(try box.request("POST", "/api/export", token: nil, headers: ["Cookie": "rec_review=\(box.exportToken)"], body: body).status == 403)
        #expect(try box.request("POST", "/api/export", token: box.exportToken, headers: ["Origin": "http://evil.example"], body: body).status == 403)
        #expect(try box.request("POST", "/api/export", token: box.exportToken, headers: ["Sec-Fetch-Site": "cross-site"], body: body).status == 403)
        // Bad requests say what to change.
        let backwards = try box.request("POST", "/api/export", token: box.exportToken, body: #"{"from": 20, "to": 10, "cameras": ["front"]}"#)
        #expect(backwards.status == 400 && backwards.text.contains("after the in handle"), "\(backwards.text)")
        let nobody = try box.request("POST", "/api/export", token: box.exportToken,
                                     body: #"{"from": \#(Date().timeIntervalSince1970 - 2), "to": \#(Date().timeIntervalSince1970 - 1), "cameras": ["nobody"]}"#)
        #expect(nobody.status == 400 && nobody.text.contains("no session 'nobody'"), "\(nobody.text)")
        #expect(try box.request("POST", "/api/export", token: box.exportToken, body: "not json").status == 400)
        // The export token may.
        let made = try box.request("POST", "/api/export", token: box.exportToken, body: body)
        #expect(made.status == 202, "\(made.text)")
        for name in ["front", "plain"] { #expect(try sandbox.rec(["stop", "--session", name]).status == 0) }
    }

    /// Two stand-in cameras at different rates; the range starts 2 s back and ends 3 s ahead: the
    /// export waits for its end, and each clip holds exactly the frames captured in [from, to).
    @Test func anExportIntoTheFutureHoldsExactlyTheFramesOfItsRangeFromEveryCamera() throws {
        // Camera b copies its saves off the box (`--upload`, the real rclone to a WebDAV server on
        // loopback): its clip of the export goes too.
        let dav = try RecBinary.temporaryFolder()
        let server = try WebDAVTestServer(root: dav + "/remote")
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: dav)
        }
        try server.writeConfig(to: dav + "/rclone.conf")
        let sandbox = try Sandbox(environment: ["RCLONE_CONFIG": dav + "/rclone.conf"])
        let box = try ReviewBox(sandbox: sandbox)
        let rates = ["a": 30.0, "b": 25.0]
        try box.startCamera("a", "test:320x240@30")
        try box.startCamera("b", "test:320x240@25", ["--upload", "dav:cams"])
        for name in rates.keys { try sandbox.waitForFrames(75, session: name) }
        let now = Date().timeIntervalSince1970
        let (from, to) = (now - 2, now + 3)
        let made = try box.request("POST", "/api/export", token: box.exportToken,
                                   body: #"{"from": \#(from), "to": \#(to), "cameras": ["a", "b"]}"#)
        try #require(made.status == 202, "\(made.text)")
        let id = try #require((made.json["export"] as? [String: Any])?["id"] as? Int)
        let job = try box.waitForExport(id, timeout: 15)
        #expect(job["state"] as? String == "done", "\(job)")
        let folder = try #require(job["folder"] as? String)
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/manifest.json"))) as? [String: Any])
        let cameras = manifest["cameras"] as? [[String: Any]] ?? []
        #expect(cameras.compactMap { $0["name"] as? String } == ["a", "b"])
        for camera in cameras {
            let name = try #require(camera["name"] as? String), rate = try #require(rates[name])
            let started = try #require(try box.request("GET", "/cam/\(name)/api/live", token: box.watchToken).json["started_at"] as? Double)
            // The frames captured in [from, to): frame k was captured at started + k / rate.
            let first = Int(((from - started) * rate - 1e-4).rounded(.up)), end = Int(((to - started) * rate - 1e-4).rounded(.up))
            let stamps = try FrameReader.read(path: folder + "/" + (camera["file"] as? String ?? "")).frames.map(\.stamp)
            let exact = stamps == (first..<end).map { Optional($0) }
            #expect(exact, "\(name): \(stamps.first ?? nil)…\(stamps.last ?? nil) (\(stamps.count)), want \(first)..<\(end)")
            #expect(camera["frames"] as? Int == end - first)
            let savedFrom = camera["saved_from"] as? Double ?? 0
            #expect(abs(savedFrom - (started + Double(first) / rate)) < 0.001, "\(name) saved from \(savedFrom)")
        }
        // b's clip arrives whole on the WebDAV server, and the page's timeline data has its upload
        // (its state may still say copying: the session records "done" after rclone returns).
        let remote = server.root + "/cams", local = folder + "/" + (cameras.last?["file"] as? String ?? "")
        try FileManager.default.createDirectory(atPath: remote, withIntermediateDirectories: true)
        let copied = Observe.until(watching: [remote], timeout: 60) {
            FileManager.default.contentsEqual(atPath: local, andPath: remote + "/" + (local as NSString).lastPathComponent)
        }
        #expect(copied, "b's clip of the export was not copied: \((try? FileManager.default.contentsOfDirectory(atPath: remote)) ?? [])")
        let saves = try box.request("GET", "/cam/b/api/recordings", token: box.watchToken).json["saves"] as? [[String: Any]] ?? []
        #expect(saves.contains { $0["upload"] is String }, "b's saves: \(saves)")
        // The bundle's files are downloadable with the export token only.
        let clip = try box.request("GET", "/api/exports/\(id)/a.mp4?download=1", token: box.exportToken)
        #expect(clip.status == 200 && clip.headers["content-disposition"]?.contains("a.mp4") == true && clip.body.count > 1000)
        #expect(try box.request("GET", "/api/exports/\(id)/a.mp4", token: box.watchToken).status == 403)
        #expect(try box.request("GET", "/api/exports/\(id)/../../etc/passwd", token: box.exportToken).status == 404)
        for name in rates.keys { #expect(try sandbox.rec(["stop", "--session", name]).status == 0) }
    }
}
