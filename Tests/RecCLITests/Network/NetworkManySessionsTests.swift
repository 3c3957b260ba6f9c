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
    /// how long the stream had run before it joined, and the clips missed each other (or the
    /// range was outside the later sessions' buffers): a known issue until `rangeStart`.
    @Test func threeSessionsOfASharedStreamSaveTheSameFrames() throws {
        let server = try RTSPTestServer()
        let box = try Sandbox()
        let reports = try Self.saveFromThree(server.url(.h264Shared), in: box)
        Self.expectAligned(reports)
        try Self.expectSameFrames(in: Self.names.map { box.path("clips/\($0).mp4") })
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
