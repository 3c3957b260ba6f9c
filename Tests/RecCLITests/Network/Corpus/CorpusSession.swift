import Foundation
import TestServers

/// One row's session, as a user runs it (issue 39's checks): `rec start` with an 8 s buffer and
/// a recording file, waited on until the ring's end passes 20 s; a snapshot between two statuses
/// and `save --last 8s`; then the server is killed and started again on its port (an outage),
/// the session waited on until it has 2 s of pictures of the new connection, and `rec stop`. It
/// runs on a thread of its own, since it mostly waits on processes: the rows' sessions then run
/// at the same time, in real time, whatever number of cores the cooperative pool has.
struct CorpusTake: Sendable {
    typealias Sandbox = BackgroundSessionTests.Sandbox

    static let buffer = 8.0
    static let ringEnd = 20.0
    static let last = 8.0
    /// Seconds of pictures the session is given after reconnecting, before the ring is looked at again.
    static let afterReconnect = 2.0

    let box: Sandbox
    let url: String
    let start: RecBinary.Result
    /// `status --json --wait-until 20s`.
    var ring: RecBinary.Result?
    /// `status --json` just before and just after the snapshot.
    var beforeSnapshot: RecBinary.Result?
    var snapshot: RecBinary.Result?
    var afterSnapshot: RecBinary.Result?
    var save: RecBinary.Result?
    /// `status --json --wait-error` once the server is killed: the session has seen the outage.
    var away: RecBinary.Result?
    /// `status --json --wait-frames …` once the session has 2 s of the new connection's pictures.
    var back: RecBinary.Result?
    var stop: RecBinary.Result?
    /// The end of the server's log, for failure messages.
    var serverLog = ""
    /// Seconds from the server's start to the session's stop.
    var seconds = 0.0

    var recording: String { box.path("rec.mkv") }
    var clip: String { box.path("clip.mp4") }
    var still: String { box.path("still.jpg") }

    /// Serves `camera` and records it; throws only when the server cannot start.
    static func record(_ camera: Camera) throws -> CorpusTake {
        let began = ContinuousClock.now
        let box = try Sandbox()
        let served = try camera.serve()
        defer { served.server.stop() }
        let start = try box.rec(["start", "--source", served.url, "--buffer", "\(Int(buffer))s", "-o", "rec.mkv"])
        var take = CorpusTake(box: box, url: served.url, start: start)
        if start.status == 0 {
            take.ring = try box.rec(["status", "--json", "--wait-until", "\(Int(ringEnd))s", "--timeout", "90s"])
            take.beforeSnapshot = try box.rec(["status", "--json"])
            take.snapshot = try box.rec(["snapshot", "-o", "still.jpg"])
            take.afterSnapshot = try box.rec(["status", "--json"])
            take.save = try box.rec(["save", "--last", "\(Int(last))s", "-o", "clip.mp4", "--json"])
            served.server.kill()
            take.away = try box.rec(["status", "--json", "--wait-error", "--timeout", "30s"])
            try served.server.restart()
            let frames = CorpusChecks.object(take.away)["frames"] as? Int ?? 0
            let more = Int(afterReconnect * Double(camera.fps))
            take.back = try box.rec(["status", "--json", "--wait-frames", "\(frames + more)", "--timeout", "60s"])
            take.stop = try box.rec(["stop", "--json"])
        }
        take.serverLog = served.server.process.logTail()
        take.seconds = (ContinuousClock.now - began) / .seconds(1)
        return take
    }

    /// `record(camera)` on a new thread, awaited.
    static func recordOnItsOwnThread(_ camera: Camera) async throws -> CorpusTake {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try record(camera) })
            }
        }
    }
}
