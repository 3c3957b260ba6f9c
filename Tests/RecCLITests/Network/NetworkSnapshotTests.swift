import Foundation
import Testing
import TestServers
import TestPool

/// Issue 39: a snapshot of a copy session is the newest picture the camera sent, decoded from its
/// last keyframe on, never that keyframe. On a camera with a keyframe every 4 s, asked 5 s in,
/// it showed frame 120 (4.0 s) before.
@Suite(.blocking) struct NetworkSnapshotTests {
    typealias Sandbox = BackgroundSessionTests.Sandbox

    @Test(arguments: [RTSPTestServer.Mount.longGOP, .h264BFrames])
    func aSnapshotIsTheNewestPicture(_ mount: RTSPTestServer.Mount) throws {
        let server = try RTSPTestServer()
        let box = try Sandbox()
        let start = try box.rec(["start", "--source", server.url(mount), "--no-file"])
        try #require(start.status == 0, "rec start: \(start.error)")
        try box.waitForFrames(150)
        let before = try #require(try box.status()["frames"] as? Int)
        let snapshot = try box.rec(["snapshot", "-o", "still.jpg"])
        try #require(snapshot.status == 0, "rec snapshot: \(snapshot.error)")
        let after = try #require(try box.status()["frames"] as? Int)
        let gray = try Tool.run("ffmpeg", ["-v", "error", "-i", box.path("still.jpg"), "-vf", "format=gray", "-f", "rawvideo", "-"])
        let counter = StandInPicture(width: NetworkClip.width, height: NetworkClip.height).read([UInt8](gray.stdout)).counter
        // The frames counted include the one held for its duration: the newest in the ring is
        // at most one behind, and the newest picture is presented at most once more later.
        #expect((before - 2)...after ~= counter, "the snapshot shows frame \(counter); the session had \(before)–\(after)")
        #expect(try box.rec(["stop"]).status == 0)
    }
}
