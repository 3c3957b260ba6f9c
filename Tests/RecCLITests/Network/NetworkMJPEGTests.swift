import Foundation
import Testing
import TestServers
import TestPool

/// Issue 39: a multipart MJPEG stream over HTTP carries no times (libavformat numbers its
/// pictures at a guessed 25 a second), so rec times each picture by its arrival: a camera that
/// sends 15 pictures a second is recorded at 15, its ring spans the seconds it recorded, and its
/// snapshot (the camera's own JPEG) says its size. Before, status said 25.00 fps, the ring
/// spanned 3/5 of the time, and the snapshot was reported as 0x0.
@Suite(.blocking) struct NetworkMJPEGTests {
    typealias Sandbox = BackgroundSessionTests.Sandbox

    @Test func anHTTPMJPEGCameraIsTimedByArrival() throws {
        let server = try FFmpegTestServer(.httpMJPEG, rate: 15)
        let box = try Sandbox()
        let start = try box.rec(["start", "--source", server.url, "--buffer", "60s", "--no-file"])
        try #require(start.status == 0, "rec start: \(start.error)")
        try box.waitForFrames(90)
        let status = try box.status()
        let frames = try #require(status["frames"] as? Int)
        let fps = try #require(status["fps"] as? Double)
        let span = try #require(status["ring_span"] as? Double)
        #expect(abs(fps - 15) < 1, "status says \(fps) fps")
        // Nothing evicted from a 60 s ring: it spans every picture, each 1/15 s.
        #expect(abs(span - Double(frames) / 15) < 0.2, "the ring spans \(span) s after \(frames) pictures")
        let snapshot = try box.rec(["snapshot", "-o", "still.jpg"])
        try #require(snapshot.status == 0, "rec snapshot: \(snapshot.error)")
        #expect(snapshot.output.contains("(160x90, "), "\(snapshot.output)")
        let save = try box.rec(["save", "--last", "2s", "-o", "last.mkv", "--json"])
        try #require(save.status == 0, "rec save: \(save.error)")
        // Every other picture of the 30 a second the picture counts: two seconds are 30 of them.
        let counters = try NetworkClip.counters(box.path("last.mkv"))
        let steps = Set(zip(counters.dropFirst(), counters).map { $0 - $1 })
        #expect(counters.count == 30 && steps == [2], "\(counters.count) pictures, steps \(steps.sorted())")
        #expect(try box.rec(["stop"]).status == 0)
    }
}
