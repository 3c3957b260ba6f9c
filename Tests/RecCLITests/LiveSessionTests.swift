import Foundation
import Media
import Testing
import TestPool

/// `rec start --http`: the live page's security, its JSON API, and exact clips from the timeline.
@Suite(.blocking) struct LiveSessionTests {
    typealias Sandbox = BackgroundSessionTests.Sandbox

    /// A running session with a live page on a free loopback port.
    struct Live {
        let sandbox: Sandbox
        let port: Int
        let token: String
        let url: String

        init(sandbox: Sandbox? = nil, _ extra: [String] = []) throws {
            self.sandbox = try sandbox ?? Sandbox()
            let source = extra.contains("--source") ? [] : ["--source", "test:320x240@30"]
            let buffer = extra.contains("--buffer") ? [] : ["--buffer", "30s"]
            let file = extra.contains("-o") || extra.contains("--output") ? [] : ["--no-file"]
            let started = try self.sandbox.rec(["start"] + source + file + buffer + ["--http", "0"] + extra)
            #expect(started.status == 0, "\(started.error)")
            url = try self.sandbox.rec(["view", "--no-open"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
            let parts = url.split(separator: "?token=")
            token = String(parts.last ?? "")
            port = Int(parts.first?.split(separator: ":").last?.filter(\.isNumber) ?? "") ?? 0
        }

        func get(_ path: String, _ headers: [String: String] = [:], limit: Int = 64 << 20) throws -> HTTPTestClient.Response {
            try HTTPTestClient.request(port: port, "GET", path, headers: headers, limit: limit)
        }

        var auth: [String: String] { ["X-Rec-Token": token] }
    }

    @Test func onlyTheTokenHolderOnThisHostFromThisOriginGetsIn() throws {
        let live = try Live()
        #expect(live.token.count == 64 && live.port > 0)
        let mode = try FileManager.default.attributesOfItem(atPath: live.sandbox.folder + "/run/rec/default/http-token")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try live.get("/").status == 401)
        #expect(try live.get("/?token=" + String(repeating: "0", count: 64)).status == 401)
        let page = try live.get("/?token=" + live.token)
        #expect(page.status == 200 && page.text.contains("<video"))
        let cookie = try #require(page.headers["set-cookie"])
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/"))
        let jar = String(cookie.split(separator: ";")[0])
        #expect(try live.get("/api/status", ["Cookie": jar]).status == 200)
        #expect(try live.get("/?token=" + live.token, ["Host": "evil.example:\(live.port)"]).status == 421)
        #expect(try live.get("/api/status", ["Host": "rebind.test:\(live.port)", "Cookie": jar]).status == 421)
        #expect(try live.get("/api/status", ["Cookie": jar, "Origin": "http://evil.example"]).status == 403)
        #expect(try live.get("/api/status", ["Cookie": jar, "Sec-Fetch-Site": "cross-site"]).status == 403)
        let forged = try HTTPTestClient.request(port: live.port, "POST", "/api/save", headers: ["Cookie": jar],
                                                body: Array(#"{"last":1}"#.utf8))
        #expect(forged.status == 403)
        let huge = try HTTPTestClient.request(port: live.port, "POST", "/api/save", headers: live.auth,
                                              body: Array(repeating: 32, count: 200_000))
        #expect(huge.status == 413)
        #expect(try live.get("/nothing", live.auth).status == 404)
        #expect(try HTTPTestClient.request(port: live.port, "POST", "/api/status", headers: live.auth).status == 405)
    }

    @Test func theAPIGivesStatusSnapshotTimelineLiveVideoAndExactClips() throws {
        let live = try Live()
        try live.sandbox.waitForFrames(75)
        let status = try live.get("/api/status", live.auth).json
        #expect((status["status"] as? [String: Any])?["state"] as? String == "recording")
        let jpeg = try live.get("/api/snapshot.jpg", live.auth)
        #expect(jpeg.status == 200 && jpeg.body.starts(with: [0xFF, 0xD8]))
        let timeline = try live.get("/api/timeline", live.auth).json
        let keyframes = try #require(timeline["keyframes"] as? [Double])
        #expect(keyframes.count >= 2)
        let thumb = try live.get("/api/thumb.jpg?t=\(keyframes[1])", live.auth)
        #expect(thumb.status == 200 && thumb.body.starts(with: [0xFF, 0xD8]))
        // The live stream: an init segment (ftyp, moov), then fragments that decode to the session's frames.
        let stream = try live.get("/live.mp4", live.auth, limit: 30_000)
        #expect(stream.headers["content-type"]?.hasPrefix(#"video/mp4; codecs="avc1."#) == true)
        #expect(stream.headers["content-type"]?.contains(",") == false, "no sound track without sound")
        #expect(Array(stream.body[4..<8]) == Array("ftyp".utf8))
        let streamFile = live.sandbox.path("live.mp4")
        try Data(stream.body).write(to: URL(fileURLWithPath: streamFile))
        let streamed = try FrameReader.read(path: streamFile).frames.compactMap(\.stamp)
        #expect(streamed.count > 10 && BackgroundSessionTests.consecutive(streamed))
        // A clip played from the timeline is exact: frames 30 ..< 60.
        let clip = try live.get("/api/clip.mp4?from=1&to=2", live.auth)
        #expect(clip.status == 200 && clip.headers["x-rec-frames"] == "30")
        let clipFile = live.sandbox.path("clip.mp4")
        try Data(clip.body).write(to: URL(fileURLWithPath: clipFile))
        #expect(try FrameReader.read(path: clipFile).frames.map(\.stamp) == (30..<60).map { Optional($0) })
        // Saved on the session's machine, as `rec save` does.
        let output = live.sandbox.path("saved.mp4")
        let saved = try HTTPTestClient.request(port: live.port, "POST", "/api/save", headers: live.auth.merging(["Origin": "http://127.0.0.1:\(live.port)"]) { a, _ in a },
                                               body: Array(#"{"from":0.5,"to":1.5,"output":"\#(output)"}"#.utf8))
        #expect(saved.status == 200, "\(saved.text)")
        #expect(try FrameReader.read(path: output).frames.map(\.stamp) == (15..<45).map { Optional($0) })
        let bad = try HTTPTestClient.request(port: live.port, "POST", "/api/save", headers: live.auth, body: Array("[1]".utf8))
        #expect(bad.status == 400)
        #expect(try live.sandbox.rec(["stop"]).status == 0)
    }

    /// Viewers that stop reading hold up neither the session nor another viewer: capture goes on
    /// and a reading viewer gets every frame in order.
    @Test func stalledViewersStallNothing() throws {
        let live = try Live()
        try live.sandbox.waitForFrames(30)
        let stalled = (0..<3).map { _ in HTTPTestClient.stalled(port: live.port, "/live.mp4", headers: live.auth) }
        defer { stalled.forEach { close($0) } }
        let framesBefore = try live.sandbox.status()["frames"] as? Int ?? 0
        let stream = try live.get("/live.mp4", live.auth, limit: 60_000)
        let file = live.sandbox.path("reader.mp4")
        try Data(stream.body).write(to: URL(fileURLWithPath: file))
        let seen = try FrameReader.read(path: file).frames.compactMap(\.stamp)
        #expect(seen.count > 50 && BackgroundSessionTests.consecutive(seen), "\(seen)")
        let status = try live.sandbox.status()
        #expect((status["frames"] as? Int ?? 0) > framesBefore + 50)
        let extra = status["extra"] as? [String: String] ?? [:]
        // Still attached and not reading: their queues take what comes and skip when full
        // (FragmentQueue's tests); the encode thread only ever appended to the shared inbox.
        #expect(Int(extra["live_viewers"] ?? "") ?? 0 >= 3, "\(extra)")
        #expect(try live.sandbox.rec(["stop"]).status == 0)
    }

    /// With sound the live stream carries it as a second track, named in its type, in sync with
    /// the pictures (the stand-in's click against its flash, measured by ffmpeg's command line).
    @Test func theLiveStreamCarriesTheSoundInSync() throws {
        let live = try Live(["--audio", "test"])
        try live.sandbox.waitForFrames(30)
        let info = try live.get("/api/live", live.auth).json
        #expect(info["sound"] as? String == "mp4a.40.2", "\(info)")
        let stream = try live.get("/live.mp4", live.auth, limit: 400_000)
        #expect(stream.headers["content-type"] == #"video/mp4; codecs="\#(info["mime"].flatMap { ($0 as? String)?.split(separator: "\"").dropFirst().first } ?? "")""#)
        let file = live.sandbox.path("live-sound.mp4")
        try Data(stream.body).write(to: URL(fileURLWithPath: file))
        // The stream starts at a keyframe on a whole second, and its sound there: the click at
        // that instant is in the first AAC frame, which decodes without its predecessor's
        // overlap (so quietly). Every later second is checked.
        let errors = try SoundProbe.syncErrors(in: file).filter { $0.second > 0.5 }
        #expect(errors.count >= 2, "\(errors)")
        #expect((errors.map { abs($0.error) }.max() ?? .infinity) <= 0.003, "click against flash: \(errors)")
        let extra = try live.sandbox.status()["extra"] as? [String: String] ?? [:]
        #expect(extra["live_sound"] == "mp4a.40.2", "\(extra)")
        #expect(try live.sandbox.rec(["stop"]).status == 0)
    }

    /// When the sound ends and the pictures go on (here a file whose sound is 2 s long), the live
    /// stream ends and starts again with the pictures only, so no browser waits for sound that
    /// will not come.
    @Test func whenTheSoundEndsTheLiveStreamGoesOnWithPicturesOnly() throws {
        let sandbox = try Sandbox()
        let source = sandbox.path("short-sound.mp4")
        try Tool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=30",
                                "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-c:v", "libx264",
                                "-preset", "ultrafast", "-g", "15", "-c:a", "aac", source])
        let live = try Live(sandbox: sandbox, ["--source", "file:\(source)", "--audio", "file"])
        let stream = try live.get("/live.mp4", live.auth, limit: 50 << 20)
        #expect(stream.headers["content-type"]?.contains("mp4a.40.2") == true, "\(stream.headers)")
        let ended = try live.get("/api/live", live.auth).json
        #expect(ended["sound"] is NSNull && (ended["sound_note"] as? String)?.contains("ended") == true, "\(ended)")
        let again = try live.get("/live.mp4", live.auth, limit: 20_000)
        #expect(again.headers["content-type"]?.contains(",") == false, "\(again.headers)")
        #expect(try live.sandbox.rec(["stop"]).status == 0)
    }
}
