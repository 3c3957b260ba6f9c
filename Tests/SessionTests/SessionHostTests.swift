import Capture
import Foundation
import Media
import RecCore
import Session
import Testing
import TestPool

/// Clips from a ring while it is being filled, through the session host itself (no sockets):
/// every clip's frames checked by the numbers drawn in them.
@Suite(.blocking, .serialized) struct SessionHostTests {
    static func temp(_ ext: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("host-\(UUID()).\(ext)").path
    }

    static func configuration(bFrames: Int?, output: String? = nil, onSave: String? = nil) -> SessionConfiguration {
        let encoder = EncoderSettings(encoder: "libx264", width: 0, height: 0, pixelFormat: .yuv420p,
                                      bFrames: bFrames, speed: "veryfast")
        let recorder = RecorderConfiguration(encoder: encoder, keyframeSeconds: 1,
                                             output: output.map { .init(path: $0, container: .mkv) }, pace: .realtime)
        return SessionConfiguration(name: "test", recorder: recorder, onSave: onSave)
    }

    /// Asks the host, as a client would, to answer once its ring reaches `seconds`.
    static func waitForRing(_ host: SessionHost, seconds: Double) {
        let wait = StatusRequest(wait: StatusWait(ringEnd: seconds, timeout: 30))
        guard case .ok(.status(let status)) = host.handle(ControlRequest(id: .number(1), command: .status(wait))) else {
            Issue.record("the status wait failed")
            return
        }
        #expect(status.wait == .met, "the ring never reached \(seconds) s: \(status.extra ?? [:])")
    }

    /// Frame n of a 30 fps session is at n/30 s; half a frame earlier selects it as a start or end.
    static func at(_ frame: Int) -> ControlTime { .seconds(max(0, (Double(frame) - 0.5) / 30)) }

    static func stamps(_ path: String) throws -> [Int?] {
        try FrameReader.read(path: path).frames.map(\.stamp)
    }

    @Test(arguments: [3, 0])
    func clipsFromALiveRingAreExact(bFrames: Int) throws {
        FFmpegLog.quiet()
        let host = SessionHost(configuration: Self.configuration(bFrames: bFrames),
                               source: TestPatternSource(width: 320, height: 240, fps: 30))
        try host.recorder.waitUntilStarted()
        defer { _ = host.stop() }
        Self.waitForRing(host, seconds: 3.6)
        let cases = [(30, 60), (31, 61), (29, 59), (45, 46), (0, 90), (7, 101)]
        for ext in ["mp4", "mkv"] {
            for (a, b) in cases {
                let path = Self.temp(ext)
                defer { try? FileManager.default.removeItem(atPath: path) }
                let report = try host.save(SaveRequest(from: Self.at(a), to: Self.at(b), output: path))
                #expect(try Self.stamps(path) == (a..<b).map { Optional($0) }, "\(ext) [\(a), \(b))")
                #expect(report.frames == b - a)
                #expect(report.droppedInRange == 0)
            }
        }
        // Recording went on throughout, with nothing dropped.
        #expect(host.recorder.currentStats.droppedLate == 0)
        #expect(host.recorder.currentStats.state == .recording)
    }

    @Test func clearDropsTheRingUpToTheSavedEnd() throws {
        let host = SessionHost(configuration: Self.configuration(bFrames: 0),
                               source: TestPatternSource(width: 320, height: 240, fps: 30))
        try host.recorder.waitUntilStarted()
        defer { _ = host.stop() }
        Self.waitForRing(host, seconds: 3.2)
        let path = Self.temp("mp4")
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try host.save(SaveRequest(from: Self.at(10), to: Self.at(70), output: path, clear: true))
        let start = try #require(host.ring.stats.start)
        #expect(start.seconds > 1.0 && start.seconds <= 70.0 / 30)
        // What was cleared is gone; asking for it again says what the ring holds.
        let error = #expect(throws: RecError.self) {
            try host.save(SaveRequest(from: Self.at(10), to: Self.at(20), output: Self.temp("mp4")))
        }
        #expect(error?.message.contains("holds") == true)
    }

    @Test func onSaveRunsWithTheClipPath() throws {
        // The command writes into a FIFO: the test reads what it wrote when it closes it.
        let marker = Self.temp("fifo")
        #expect(mkfifo(marker, 0o600) == 0)
        let reader = try FIFOReader(path: marker)
        let clip = Self.temp("mp4")
        defer { for p in [marker, clip] { try? FileManager.default.removeItem(atPath: p) } }
        let host = SessionHost(configuration: Self.configuration(bFrames: 0, onSave: "printf %s \"$1\" > '\(marker)'"),
                               source: TestPatternSource(width: 320, height: 240, fps: 30))
        try host.recorder.waitUntilStarted()
        defer { _ = host.stop() }
        Self.waitForRing(host, seconds: 1.2)
        _ = try host.save(SaveRequest(from: .seconds(0), to: .seconds(1), output: clip))
        #expect(reader.readToEnd(until: .after(10)) == clip)
    }

    /// A source that fails after a number of frames, like a camera that stops answering.
    final class FailingSource: FrameSource {
        let inner = TestPatternSource(width: 320, height: 240, fps: 30)
        let failAfter: Int
        var delivered = 0
        init(failAfter: Int) { self.failAfter = failAfter }
        var format: VideoFormat { inner.format }
        var nominalFrameRate: Rational? { inner.nominalFrameRate }
        var description: String { "failing test source" }
        var droppedFrames: Int { 0 }
        var capabilities: SourceCapabilities { inner.capabilities }
        func start() throws(RecError) { try inner.start() }
        func nextFrame() throws(RecError) -> VideoFrame? {
            guard delivered < failAfter else { throw .runtime("the test source stopped answering") }
            delivered += 1
            return try inner.nextFrame()
        }
        func stop() { inner.stop() }
    }

    /// A status request that waits, as a client sends it.
    static func status(_ host: SessionHost, _ wait: StatusWait) -> StatusBody? {
        guard case .ok(.status(let body)) = host.handle(ControlRequest(id: .number(1), command: .status(StatusRequest(wait: wait)))) else {
            return nil
        }
        return body
    }

    @Test func aStatusWaitIsAnsweredWhenItHoldsAtItsTimeoutOrAtTheEnd() throws {
        let host = SessionHost(configuration: Self.configuration(bFrames: 0),
                               source: TestPatternSource(width: 320, height: 240, fps: 30))
        try host.recorder.waitUntilStarted()
        defer { _ = host.stop() }
        let frames = Self.status(host, StatusWait(frames: 20, timeout: 30))
        #expect(frames?.wait == .met)
        #expect((frames?.frames ?? 0) >= 20)
        let ring = Self.status(host, StatusWait(frames: 25, ringEnd: 1, timeout: 30))
        #expect(ring?.wait == .met)
        #expect((Double(ring?.extra?["ring_end"] ?? "") ?? 0) >= 1)
        #expect((ring?.frames ?? 0) >= 25)
        // Out of reach: answered at the timeout, with what the session reached.
        let far = Self.status(host, StatusWait(frames: 1_000_000, timeout: 0.2))
        #expect(far?.wait == .timeout)
        #expect((far?.frames ?? 0) < 1_000_000)
        #expect(far?.state == .recording)
        // A recording that ends first answers the wait at its end.
        let failing = SessionHost(configuration: Self.configuration(bFrames: 0), source: FailingSource(failAfter: 10))
        defer { _ = failing.stop() }
        let ended = Self.status(failing, StatusWait(frames: 1_000, timeout: 60))
        #expect(ended?.wait == .ended)
        #expect(ended?.frames == 10)
        // The failure is an error to report: a wait for one is met.
        let error = Self.status(failing, StatusWait(error: true, timeout: 60))
        #expect(error?.wait == .met)
        #expect(error?.lastError?.contains("stopped answering") == true)
    }

    @Test func aRuntimeFailureEndsCleanlyAndTheRingStaysSaveable() throws {
        let file = Self.temp("mkv")
        let clip = Self.temp("mp4")
        defer { for p in [file, clip] { try? FileManager.default.removeItem(atPath: p) } }
        let host = SessionHost(configuration: Self.configuration(bFrames: 0, output: file), source: FailingSource(failAfter: 45))
        try host.recorder.waitUntilStarted()
        #expect(host.recorder.waitUntilFinished(seconds: 30))
        let status = host.status()
        #expect(status.state == .failed)
        #expect(status.lastError?.contains("stopped answering") == true)
        // The file is finished and holds every frame up to the failure.
        #expect(try Self.stamps(file) == (0..<45).map { Optional($0) })
        // The ring is still there to save from.
        _ = try host.save(SaveRequest(from: .seconds(0.5), to: .seconds(1.0), output: clip))
        #expect(try Self.stamps(clip) == (15..<30).map { Optional($0) })
        let summary = host.stop()
        #expect(summary.error?.contains("stopped answering") == true)
        #expect(summary.frames == 45)
    }
}
