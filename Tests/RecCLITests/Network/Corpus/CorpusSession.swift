import Foundation
import TestServers

/// One row's session, as a user runs it: `rec start` with a 4 s buffer and a recording file,
/// waited on until the ring's end passes 6 s (so the buffer has filled), then a snapshot between
/// two statuses, `save --last 3s` and `rec stop`. It runs on a thread of its own, since it mostly
/// waits on processes: the rows' sessions then run at the same time, in real time, whatever
/// number of cores the cooperative pool has.
struct CorpusTake: Sendable {
    typealias Sandbox = BackgroundSessionTests.Sandbox

    static let buffer = 4.0
    static let ringEnd = 6.0
    static let last = 3.0

    let box: Sandbox
    let url: String
    let start: RecBinary.Result
    /// `status --json --wait-until 9s`.
    var ring: RecBinary.Result?
    /// `status --json` just before and just after the snapshot.
    var beforeSnapshot: RecBinary.Result?
    var snapshot: RecBinary.Result?
    var afterSnapshot: RecBinary.Result?
    var save: RecBinary.Result?
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
        let start = try box.rec(["start", "--source", served.url, "--buffer", "\(Int(buffer))s", "-o", "rec.mkv"])
        var take = CorpusTake(box: box, url: served.url, start: start)
        if start.status == 0 {
            take.ring = try box.rec(["status", "--json", "--wait-until", "\(Int(ringEnd))s", "--timeout", "60s"])
            take.beforeSnapshot = try box.rec(["status", "--json"])
            take.snapshot = try box.rec(["snapshot", "-o", "still.jpg"])
            take.afterSnapshot = try box.rec(["status", "--json"])
            take.save = try box.rec(["save", "--last", "\(Int(last))s", "-o", "clip.mp4", "--json"])
            take.stop = try box.rec(["stop", "--json"])
        }
        take.serverLog = served.server.process.logTail()
        served.server.stop()
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
