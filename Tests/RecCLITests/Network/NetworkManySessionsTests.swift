import Foundation
import Testing
import TestServers
import TestPool

/// Issue 21: three sessions recording one camera, saved at once with `rec save --session a,b,c`:
/// three clips of the same wall-clock range within one frame, and, where the three receive the
/// same stream, the same frames.
///
/// What the counters can show depends on the camera. The stand-in's /h264 gives each client a
/// stream of its own from frame 0, so three clients' frames at one instant carry different
/// counters and are different pictures (the moving bar too); all a clip's counters can show is
/// that it holds the frames its own session received in the range. /h264-shared sends one
/// stream to every client, as a real camera does: there the three clips must hold the same
/// counters and decode to identical frames.
@Suite(.blocking) struct NetworkManySessionsTests {
    typealias Sandbox = BackgroundSessionTests.Sandbox
    static let names = ["a", "b", "c"]

    /// Starts a session per name on `url`, waits until each has 120 frames, saves the last two
    /// seconds from all three into a folder and returns each session's report (`save` and
    /// `saved_unix`).
    static func saveFromThree(_ url: String, in box: Sandbox) throws -> [String: [String: Any]] {
        for name in names {
            let start = try box.rec(["start", "--session", name, "--source", url, "--no-file"])
            try #require(start.status == 0, "\(name): \(start.error)")
        }
        for name in names { try box.waitForFrames(120, session: name) }
        try FileManager.default.createDirectory(atPath: box.path("clips"), withIntermediateDirectories: true)
        let save = try box.rec(["save", "--session", names.joined(separator: ","), "--last", "2s", "-o", "clips/", "--json"])
        try #require(save.status == 0, "\(save.error)")
        let rows = (try JSONSerialization.jsonObject(with: Data(save.output.utf8)) as? [[String: Any]]) ?? []
        for name in names { #expect(try box.rec(["stop", "--session", name]).status == 0) }
        return Dictionary(uniqueKeysWithValues: rows.compactMap { row in (row["session"] as? String).map { ($0, row) } })
    }

    /// The clips' wall-clock starts and ends agree within one frame.
    static func expectAligned(_ reports: [String: [String: Any]]) {
        let spans = names.compactMap { (reports[$0]?["saved_unix"] as? [String: Any]).flatMap { span in
            (span["from"] as? Double).flatMap { from in (span["to"] as? Double).map { (from, $0) } }
        } }
        #expect(spans.count == 3, "\(reports)")
        for edge in [spans.map(\.0), spans.map(\.1)] {
            #expect((edge.max() ?? 0) - (edge.min() ?? 0) <= NetworkClip.frame, "wall-clock edges \(edge)")
        }
    }

    @Test func threeClientsOfOneCameraSaveTheSameInstants() throws {
        let server = try RTSPTestServer()
        let box = try Sandbox()
        let reports = try Self.saveFromThree(server.url(.h264), in: box)
        Self.expectAligned(reports)
        for name in Self.names {
            let save = reports[name]?["save"] as? [String: Any] ?? [:]
            let counters = try NetworkClip.counters(box.path("clips/\(name).mp4"))
            #expect(save["frames"] as? Int == 60 && counters == NetworkSaveTests.expectedCounters(save), "\(name): \(counters)")
        }
    }

    /// A client that joins a stream already running (the server's PLAY reply says `Range:
    /// npt=4.2-`) gets libavformat times that start there, and its `start_time_realtime` is the
    /// wall clock at that time, not at 0. Taken for time 0, the session's wall clock ran late by
    /// how long the stream had run before it joined, and the clips missed each other. Taken at
    /// the earliest first packet time instead, it ran late by how far after the range's start the
    /// first packets came: the three sessions put the camera's frame 0 21 to 49 ms apart (all of
    /// 30 runs with two busy loops), and their first frames differed in 27 (once by 2, in a
    /// whole-suite run). Each packet's own sender-report time (`SenderReportClock`) is exact.
    @Test func threeSessionsOfASharedStreamSaveTheSameFrames() throws {
        let server = try RTSPTestServer()
        let box = try Sandbox()
        let reports = try Self.saveFromThree(server.url(.h264Shared), in: box)
        Self.expectAligned(reports)
        let paths = Self.names.map { box.path("clips/\($0).mp4") }
        try Self.expectSameFrames(in: paths)
        try Self.expectOneClock(reports, paths: paths)
    }

    /// The camera's sender reports map its times to its wall clock the same way for every client:
    /// each session puts the camera's frame 0 (its clip's first frame's wall-clock time, less the
    /// frames before it) at the same instant, but for rounding to the streams' ticks (21 µs at
    /// 48 kHz) and the reports' microseconds (38 µs apart at most in 53 runs with two busy loops),
    /// so within 0.2 ms, plus the 500 ppm a session's timeline may slew after its first 10 s. So
    /// the clips start on the same frame, unless the range starts within that of a frame's start.
    /// A session the camera has sent no report yet (one every 5 s or so) is on the arrival clock,
    /// which this does not hold for.
    static func expectOneClock(_ reports: [String: [String: Any]], paths: [String]) throws {
        var zeros: [Double] = [], firsts: [Int] = [], ages: [Double] = [], start = 0.0
        for (name, path) in zip(names, paths) {
            let save = reports[name]?["save"] as? [String: Any] ?? [:]
            guard let wall = (reports[name]?["saved_unix"] as? [String: Any])?["from"] as? Double,
                  let saved = (save["saved"] as? [String: Any])?["from"] as? Double,
                  let requested = save["requested"] as? [String: Any], let from = requested["from"] as? Double,
                  let to = requested["to"] as? Double, let first = try NetworkClip.counters(path).first else {
                Issue.record("\(name): \(reports[name] ?? [:])")
                return
            }
            zeros.append(wall - Double(first) * NetworkClip.frame)
            firsts.append(first)
            ages.append(to)
            start = wall - saved + from
        }
        let spread = (zeros.max() ?? 0) - (zeros.min() ?? 0)
        let allowed = 0.000_2 + 0.000_5 * max(0, (ages.max() ?? 0) - 10)
        #expect(spread <= allowed, "frame 0 at \(zeros.map { String(format: "%.6f", $0) }), \(spread * 1000) ms apart")
        let past = ((start - (zeros.first ?? 0)) / NetworkClip.frame).truncatingRemainder(dividingBy: 1) * NetworkClip.frame
        let nearFrameStart = min(abs(past), NetworkClip.frame - abs(past)) <= spread
        #expect(Set(firsts).count == 1 || nearFrameStart, "first frames \(firsts), the range starting \(past * 1000) ms after a frame")
    }

    /// Clips of one stream aligned within a frame hold the same counters, give or take one at
    /// either end, and from the camera's first keyframe in all of them on (copied, where each
    /// clip's head before it is re-encoded from where its own cut began), identical pictures.
    static func expectSameFrames(in paths: [String]) throws {
        var clips: [(counters: [Int], hashes: [String])] = []
        for path in paths {
            let counters = try NetworkClip.counters(path)
            #expect(counters.count == 60 && NetworkClip.consecutive(counters), "\(path): breaks \(NetworkClip.breaks(counters))")
            clips.append((counters, try Self.frameHashes(path)))
        }
        let firsts = clips.compactMap(\.counters.first)
        #expect((firsts.max() ?? 0) - (firsts.min() ?? 0) <= 1, "first frames \(firsts)")
        let keyframe = ((firsts.max() ?? 0) + 29) / 30 * 30
        let copied = Array(stride(from: keyframe, through: (firsts.min() ?? 0) + 59, by: 1))
        #expect(copied.count >= 30, "frames \(copied) are copied in all")
        for counter in copied {
            let hashes = clips.compactMap { clip in clip.counters.firstIndex(of: counter).map { clip.hashes[$0] } }
            #expect(hashes.count == clips.count && Set(hashes).count == 1, "frame \(counter): \(hashes)")
        }
    }

    /// The MD5 of each decoded frame's pixels, in presentation order (ffmpeg's framemd5).
    static func frameHashes(_ path: String) throws -> [String] {
        let out = try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough",
                                          "-f", "framemd5", "-"])
        return String(decoding: out.stdout, as: UTF8.self).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }
}
