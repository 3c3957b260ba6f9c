import Foundation
import Rec
import Testing

/// The Swift API as a program that depends on rec sees it: this target imports `Rec` alone.
@Suite struct CaptureSessionTests {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "rec-api-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    /// A stand-in camera as fast as the encoder takes it, for `seconds` of session time.
    func fastTestPattern(seconds: Int, recordingTo name: String? = nil) -> CaptureSession.Configuration {
        var c = CaptureSession.Configuration(source: .testPattern(width: 320, height: 240, fps: 30))
        c.pace = .fastest
        c.duration = .seconds(seconds)
        c.recordingURL = name.map { URL(fileURLWithPath: "\(folder)/\($0)") }
        return c
    }

    /// Counts a file's frames with the API itself: the file as a source, every frame seen.
    func frames(in path: String) async throws -> [Duration] {
        var c = CaptureSession.Configuration(source: .file(URL(fileURLWithPath: path)))
        c.pace = .fastest
        let session = try CaptureSession(c)
        let times = TimeList()
        session.onFrame { times.append($0.time) }
        try await session.start()
        await session.waitUntilFinished()
        return times.all
    }

    @Test func theCallbackSeesEveryFrameInOrder() async throws {
        let session = try CaptureSession(fastTestPattern(seconds: 2, recordingTo: "all.mp4"))
        let times = TimeList()
        session.onFrame { times.append($0.time) }
        try await session.start()
        let summary = await session.waitUntilFinished()
        #expect(summary.frames == 60)
        #expect(times.all.count == summary.frames)
        #expect(zip(times.all, times.all.dropFirst()).allSatisfy { $0 < $1 })
        #expect(times.all.first == .zero)
        #expect(summary.failure == nil)
        #expect(try await frames(in: "\(folder)/all.mp4").count == 60)
    }

    @Test func framesArriveInOrderWithIncreasingTimes() async throws {
        let session = try CaptureSession(fastTestPattern(seconds: 3))
        let frames = session.frames(keepingNewest: 1000)
        try await session.start()
        var seen: [Frame] = []
        for try await frame in frames {
            #expect(frame.width == 320 && frame.height == 240)
            #expect(frame.withPlane(0) { bytes, bytesPerRow in bytes.count >= bytesPerRow * 240 } == true)
            #expect(frame.planeSize(0)! == (320, 240) && frame.planeSize(1)! == (160, 120) && frame.planeSize(3) == nil)
            seen.append(frame)
        }
        #expect(seen.map(\.number) == Array(0..<90))
        #expect(seen.first?.time == .zero)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.time < $1.time })
        #expect(await session.stop().frames == 90)
    }

    @Test func leavingTheLoopLeavesTheSessionRecording() async throws {
        var c = fastTestPattern(seconds: 1)
        c.duration = nil
        let session = try CaptureSession(c)
        try await session.start()
        for try await frame in session.frames() where frame.number >= 5 { break }
        var later: Frame?
        for try await frame in session.frames() {
            later = frame
            break
        }
        #expect(try #require(later).number > 5)
        let summary = await session.stop()
        #expect(summary.failure == nil && summary.frames > 5)
    }

    @Test func aReplayBufferSaveIsExact() async throws {
        // Four seconds, however late this test gets to save: the buffer holds 0–4 s.
        let session = try CaptureSession(fastTestPattern(seconds: 4))
        try await session.start()
        // The end may be ahead of the session: the save waits for it.
        let clip = "\(folder)/clip.mp4"
        let report = try await session.replayBuffer.save(from: .seconds(1), to: .seconds(2), into: URL(fileURLWithPath: clip))
        await session.stop()
        #expect(report.frames == 30)
        #expect(report.saved == .seconds(1)..<(.seconds(2)))
        #expect(report.description.hasPrefix("saved \(clip)"))
        let times = try await frames(in: clip)
        #expect(times.count == 30)
    }

    /// Issue 39: a save never claims what it does not hold. `save(last:)` keeps what the buffer
    /// holds and says so beside the range asked (never rewritten); `save(from:to:into:)` of a range
    /// the buffer let go refuses, saying what it holds.
    @Test func aSaveOfMoreThanTheBufferHoldsSaysSo() async throws {
        var configuration = fastTestPattern(seconds: 10)
        configuration.replayBuffer = ReplayBuffer.Limits(duration: .seconds(1), bytes: 1 << 20)
        let session = try CaptureSession(configuration)
        try await session.start()
        await session.waitUntilFinished()
        let held = try #require(session.replayBuffer.range)
        let report = try await session.replayBuffer.save(last: .seconds(8), into: URL(fileURLWithPath: "\(folder)/last.mp4"))
        // Eight seconds up to now (the middle of the newest frame), as asked.
        let requested = try #require(report.requested)
        #expect(requested.upperBound - requested.lowerBound == .seconds(8) && requested.upperBound > .seconds(9.9),
                "requested \(requested)")
        #expect(report.shortfall == .notHeld)
        let start = try #require(report.saved?.lowerBound)
        let off = start - held.lowerBound
        #expect(off < .milliseconds(1) && off > .milliseconds(-1), "saved from \(start), the buffer from \(held)")
        #expect(report.frames == Int(((held.upperBound - held.lowerBound) / .seconds(1) * 30).rounded()))
        let short = try await session.replayBuffer.save(last: .seconds(0.5), into: URL(fileURLWithPath: "\(folder)/short.mp4"))
        #expect(short.shortfall == nil && short.frames == 15)
        do {
            _ = try await session.replayBuffer.save(from: .seconds(2), to: .seconds(10), into: URL(fileURLWithPath: "\(folder)/range.mp4"))
            Issue.record("a range the buffer let go was saved")
        } catch {
            #expect(error.kind == .rangeNotHeld && error.held?.upperBound == held.upperBound, "\(error.kind), held \(String(describing: error.held))")
        }
        await session.stop()
    }

    @Test func errorsCarryTheCommandLinesMessage() async throws {
        #expect(throws: RecError.self) { try CaptureSession(.init(source: .init(parsing: "test:0x0"))) }
        do {
            _ = try Preset(named: "no-such-preset")
            Issue.record("an unknown preset was accepted")
        } catch {
            #expect(error.kind == .notFound)
            #expect(error.exitStatus == 64)
            #expect(error.message.contains("no-such-preset"))
        }
        _ = FileManager.default.createFile(atPath: "\(folder)/taken.mp4", contents: Data([1]))
        do {
            _ = try CaptureSession(fastTestPattern(seconds: 1, recordingTo: "taken.mp4"))
            Issue.record("an existing file was accepted")
        } catch {
            #expect(error.kind == .alreadyExists && error.exitStatus == 64)
            #expect(error.message.contains("taken.mp4"))
        }
    }

    @Test func aSourceThatCannotOpenEndsTheFramesWithItsError() async throws {
        let session = try CaptureSession(.init(source: .file(URL(fileURLWithPath: "\(folder)/missing.mp4"))))
        let consumer = Task {
            var seen = 0
            for try await _ in session.frames() { seen += 1 }
            return seen
        }
        await #expect(throws: RecError.self) { try await session.start() }
        let result = await consumer.result
        guard case .failure(let error) = result else { Issue.record("the frames ended without the error"); return }
        #expect((error as? RecError)?.message.contains("missing.mp4") == true, "\(error)")
    }

    @Test func cancellingTheFramesStopsTheSessionCleanly() async throws {
        var c = fastTestPattern(seconds: 1, recordingTo: "cancelled.mkv")
        c.duration = nil
        c.pace = .realTime
        let session = try CaptureSession(c)
        try await session.start()
        let consumer = Task {
            var seen = 0
            for try await _ in session.frames() { seen += 1 }
            return seen
        }
        consumer.cancel()
        _ = try? await consumer.value
        let summary = await session.waitUntilFinished()
        #expect(summary.failure == nil)
        #expect(summary.frames > 0)
        #expect(try await frames(in: "\(folder)/cancelled.mkv").count == summary.frames)
    }
}

/// Times collected on the capture thread, read once the session has ended.
final class TimeList: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [Duration] = []
    func append(_ time: Duration) { lock.withLock { times.append(time) } }
    var all: [Duration] { lock.withLock { times } }
}

/// Issue 41: report times are the frames' own, so a save from one frame's time to another's
/// reports exactly those times, and a stop summary's length is whole frames.
@Suite struct ExactTimeTests {
    @Test func aSavedRangeStartsAtTheFrameAskedFor() async throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory() + "rec-api-exact-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // 25 fps: frame times 0, 40 ms, …; 7 fps: 0, 142857 µs, 285714 µs, … (not whole milliseconds).
        for fps in [25, 7] {
            var c = CaptureSession.Configuration(source: .testPattern(width: 160, height: 120, fps: fps))
            c.pace = .fastest
            c.duration = .seconds(4)
            let session = try CaptureSession(c)
            let times = TimeList()
            let observation = session.onFrame { times.append($0.time) }
            try await session.start()
            let summary = await session.waitUntilFinished()
            observation.cancel()
            let all = times.all
            #expect(all.count == 4 * fps && summary.frames == all.count)
            let (first, end) = (all[fps + 3], all[2 * fps + 1])
            let report = try await session.replayBuffer.save(from: first, to: end, into: folder.appendingPathComponent("\(fps).mp4"))
            #expect(report.saved == first..<end, "\(fps) fps: saved \(String(describing: report.saved)), asked \(first)..<\(end)")
            #expect(report.requested == first..<end)
            #expect(report.frames == fps - 2)
            // The recording's length: the last frame's time plus one frame, exactly.
            let last = try #require(all.last)
            #expect(summary.duration == .seconds(4), "\(fps) fps: \(summary.duration), last frame at \(last)")
        }
    }

    @Test func aCancelledObservationSeesNoMoreFrames() async throws {
        var c = CaptureSession.Configuration(source: .testPattern(width: 160, height: 120, fps: 30))
        c.pace = .fastest
        c.duration = .seconds(3)
        let session = try CaptureSession(c)
        let early = TimeList()
        let all = TimeList()
        let observation = session.onFrame { frame in
            if frame.number < 10 { early.append(frame.time) }
        }
        session.onFrame { all.append($0.time) }
        observation.cancel()
        try await session.start()
        await session.waitUntilFinished()
        #expect(early.all.isEmpty && all.all.count == 90)
    }
}
