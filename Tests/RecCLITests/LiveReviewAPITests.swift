import Foundation
import Media
import Testing
import TestPool
import TestServers

/// Issue 42's review page asks each session for the exact picture at an instant
/// (`/api/frame.jpg`), from the ring or, older, from the recording; for what it holds and held
/// (`/api/recordings`: ring, files, gaps, saves); and exports ranges reaching into the future.
@Suite(.blocking) struct LiveReviewAPITests {
    typealias Live = LiveSessionTests.Live

    /// The picture at `t` (full size) and what the reply says of it; the stamp read back.
    struct Picture {
        var status: Int
        var stamp: Int?
        var width: Int
        var time: Double?
        var source: String?
        var text: String
    }

    static func picture(_ live: Live, _ t: Double, width: Int? = nil) throws -> Picture {
        let reply = try live.get("/api/frame.jpg?t=\(t)" + (width.map { "&width=\($0)" } ?? ""), live.auth)
        guard reply.status == 200 else { return Picture(status: reply.status, width: 0, text: reply.text) }
        let file = live.sandbox.path("frame-\(t)-\(width ?? 0).jpg")
        try Data(reply.body).write(to: URL(fileURLWithPath: file))
        let read = try FrameReader.read(path: file)
        return Picture(status: 200, stamp: read.frames.first?.stamp, width: read.width,
                       time: reply.headers["x-rec-frame-time"].flatMap(Double.init), source: reply.headers["x-rec-frame-source"],
                       text: "")
    }

    /// At 30 fps frame n is shown over [n/30, (n+1)/30): its start, its middle, and 0.3 ms before
    /// its start (within the 0.5 ms tolerance) all give frame n, with its own time.
    static func expectExact(_ live: Live, frame n: Int, source: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for t in [Double(n) / 30, (Double(n) + 0.5) / 30, Double(n) / 30 - 0.0003] {
            let p = try picture(live, t)
            #expect(p.status == 200 && p.stamp == n && p.source == source, "t=\(t): \(p)", sourceLocation: sourceLocation)
            #expect(abs((p.time ?? -1) - Double(n) / 30) < 2e-6, "t=\(t): \(p)", sourceLocation: sourceLocation)
        }
    }

    static func recordings(_ live: Live) throws -> [String: Any] {
        try live.get("/api/recordings", live.auth).json
    }

    enum Recording: String, CaseIterable, Sendable {
        case file, segments
        var options: [String] { self == .file ? ["-o", "rec.mp4"] : ["-o", "seg.mp4", "--segment", "2s"] }
    }

    @Test(arguments: Recording.allCases)
    func framesAreExactFromTheRingAndOlderFromTheRecording(_ recording: Recording) throws {
        let live = try Live(["--buffer", "2s"] + recording.options)
        try live.sandbox.waitForFrames(150)
        let held = try Self.recordings(live)
        let ring = try #require(held["ring"] as? [String: Double])
        let newest = try #require(held["newest"] as? Double)
        #expect(held["frame_rate"] as? Double == 30 && held["started_at"] is Double, "\(held)")
        #expect((ring["start"] ?? 0) > 1 && (ring["end"] ?? 0) > newest, "\(held)")
        let files = try #require(held["files"] as? [[String: Any]])
        #expect(files.first?["start"] as? Double == 0 && files.allSatisfy { ($0["path"] as? String)?.hasPrefix(live.sandbox.folder) == true },
                "\(files)")
        if recording == .file { #expect(files.count == 1 && files.first?["end"] as? Double == newest, "\(files)") }
        if recording == .segments { #expect(files.count >= 2 && files.last?["end"] as? Double == newest, "\(files)") }
        #expect((held["gaps"] as? [Any])?.isEmpty == true && (held["saves"] as? [Any])?.isEmpty == true, "\(held)")

        // In the ring, then older than the ring (from the file or a segment), exact either way.
        // Half a second before the newest frame: the ring keeps 2 s behind it while these run.
        let inRing = Int(newest * 30) - 15
        try Self.expectExact(live, frame: inRing, source: "ring")
        try Self.expectExact(live, frame: 17, source: "file")
        try Self.expectExact(live, frame: 1, source: "file")
        // Frame 0 from 0; scaled; nothing before 0, after the newest frame, or without a good t.
        #expect(try Self.picture(live, 0).stamp == 0)
        let small = try Self.picture(live, Double(inRing) / 30, width: 160)
        #expect(small.status == 200 && small.width == 160 && small.source == "ring", "\(small)")
        #expect(try Self.picture(live, -0.5).status == 404)
        let future = try Self.picture(live, newest + 5)
        #expect(future.status == 404 && future.text.contains("not recorded yet"), "\(future.text)")
        #expect(try live.get("/api/frame.jpg", live.auth).status == 400)
        #expect(try live.get("/api/frame.jpg?t=abc", live.auth).status == 400)
        #expect(try live.get("/api/frame.jpg?t=1&width=8", live.auth).status == 400)
        #expect(try live.sandbox.rec(["stop"]).status == 0)
    }

    /// The review page's export: `POST /api/save` with wall-clock ends, the end 3 s ahead of the
    /// newest frame, waits and holds exactly the frames presented in [A, B); the clip is listed.
    @Test func aSaveReachingIntoTheFutureWaitsAndIsExactAndListed() throws {
        let live = try Live()
        try live.sandbox.waitForFrames(45)
        let held = try Self.recordings(live)
        let zero = try #require(held["started_at"] as? Double)
        let newest = try #require(held["newest"] as? Double)
        // Ends half a frame before frames `first` and `end`: clear of the frames' edges.
        let first = 15, end = Int((newest + 3) * 30)
        let (a, b) = (zero + (Double(first) - 0.5) / 30, zero + (Double(end) - 0.5) / 30)
        let output = live.sandbox.path("export.mp4")
        let body = #"{"from":{"unix":\#(String(format: "%.6f", a))},"to":{"unix":\#(String(format: "%.6f", b))},"output":"\#(output)"}"#
        let saved = try HTTPTestClient.request(port: live.port, "POST", "/api/save", headers: live.auth, body: Array(body.utf8))
        #expect(saved.status == 200, "\(saved.text)")
        // Every frame of [A, B) the session recorded: on a loaded machine the stand-in camera's
        // frames may be dropped late, and the reply counts those.
        let report = (saved.json["save"] as? [String: Any]) ?? saved.json
        let dropped = report["dropped_in_range"] as? Int ?? 0
        let stamps = try FrameReader.read(path: output).frames.compactMap(\.stamp)
        #expect(stamps.first == first && stamps.last == end - 1 && stamps.count + dropped == end - first
                && zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 }, "\(stamps) \(saved.text)")
        let saves = try #require(try Self.recordings(live)["saves"] as? [[String: Any]])
        #expect(saves.count == 1 && saves.first?["path"] as? String == output && saves.first?["by"] as? String == "page"
                && saves.first?["frames"] as? Int == stamps.count && saves.first?["upload"] is NSNull, "\(saves)")
        let from = saves.first?["from"] as? Double ?? -1
        #expect(abs(from - Double(first) / 30) < 0.001, "\(saves)")
        #expect(try live.sandbox.rec(["stop"]).status == 0)
    }

    /// A network camera (copied as it comes) killed for about 3 s: the gap is listed while it is
    /// under way and after, about as long as the camera was away, with its reason; no picture is
    /// served inside it, and pictures either side are.
    @Test func aNetworkCameraOutageIsAGap() throws {
        let server = try RTSPTestServer()
        let live = try Live(["--source", server.url(.h264)])
        try live.sandbox.waitForFrames(30)
        let killed = ContinuousClock.now
        server.kill()
        let away = try NetworkOutageTests.status(live.sandbox, wait: ["--wait-error", "--timeout", "20s"])
        let duringText = try live.get("/api/recordings", live.auth).text
        let during = try #require(try Self.recordings(live)["gaps"] as? [[String: Any]])
        #expect(during.count == 1 && during.first?["open"] as? Bool == true
                && (during.first?["reason"] as? String)?.contains("ended the stream") == true,
                "\(during) \(duringText) \(away)")
        // The outage itself lasts 3 s: the camera's silence, not a wait for the session.
        let seconds = { (d: Duration) in Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18 }
        Thread.sleep(forTimeInterval: max(0, 3 - seconds(ContinuousClock.now - killed)))
        try server.restart()
        let down = ContinuousClock.now - killed
        let before = away["frames"] as? Int ?? 0
        _ = try NetworkOutageTests.status(live.sandbox, wait: ["--wait-frames", "\(before + 30)", "--timeout", "30s"])
        let upper = ContinuousClock.now - killed
        let gaps = try #require(try Self.recordings(live)["gaps"] as? [[String: Any]])
        let gap = try #require(gaps.first)
        let (start, end) = (gap["start"] as? Double ?? 0, gap["end"] as? Double ?? 0)
        #expect(gaps.count == 1 && gap["open"] as? Bool == false && (gap["reason"] as? String)?.contains("ended the stream") == true,
                "\(gaps)")
        #expect(end - start > seconds(down) - 0.2 && end - start < seconds(upper), "gap \(start)–\(end); down \(down), back by \(upper)")
        let inside = try Self.picture(live, (start + end) / 2)
        #expect(inside.status == 404 && inside.text.contains("gap"), "\(inside)")
        // Either side: the camera's own pictures, the frame at or before each time.
        for t in [start - 0.5, end + 0.3] {
            let p = try Self.picture(live, t)
            #expect(p.status == 200 && p.source == "ring" && (p.time ?? 99) <= t + 0.0005 && (p.time ?? 0) > t - 0.1, "t=\(t): \(p)")
        }
        #expect(try live.sandbox.rec(["stop"]).status == 0)
    }
}
