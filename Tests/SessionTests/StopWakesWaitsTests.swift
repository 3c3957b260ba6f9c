import Capture
import Foundation
import Glibc
import Media
import RecCore
@testable import Session
@testable import SessionControl
import Testing
import TestPool

/// Issue 20, item 4: every wait ends on what it waits for, and a stop ends it at once. Asserted by
/// what happened and in which order; the long waits' own deadlines (minutes) are far beyond the
/// hang guards here, so a wait that only a clock could end fails.
@Suite(.blocking) struct StopWakesWaitsTests {
    /// Runs `body` on a thread of its own; the latch opens when it has returned.
    static func onThread(_ body: @escaping @Sendable () -> Void) -> Latch {
        let ended = Latch()
        Thread {
            body()
            ended.release()
        }.start()
        return ended
    }

    @Test func aStopWakesASaveWaitingForTheFuture() throws {
        FFmpegLog.quiet()
        let host = SessionHost(configuration: SessionHostTests.configuration(bFrames: 0),
                               source: TestPatternSource(width: 160, height: 120, fps: 30))
        try host.recorder.waitUntilStarted()
        let path = SessionHostTests.temp("mp4")
        defer { try? FileManager.default.removeItem(atPath: path) }
        // The ring has packets (each one pulses `progress`) before the save asks.
        _ = host.progress.wait { host.ring.stats.end != nil }
        // Twenty seconds ahead: the save waits for the ring to get there, or for the recording to end.
        let saved = Self.onThread {
            _ = try? host.save(SaveRequest(from: .seconds(0), to: .text("+20s"), output: path))
        }
        let first = host.progress.pulses
        _ = host.progress.wait { host.progress.pulses > first + 3 }
        #expect(!saved.isReleased, "the save is waiting for the future")
        _ = host.stop()
        #expect(saved.wait(until: .after(120)), "the stop ended the save's wait")
        #expect((host.ring.stats.end?.seconds ?? 0) < 20, "the save ended with the recording, not at the time it asked for")
    }

    @Test func aHangUpWakesItsWatchAndACancelEndsAQuietOne() throws {
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[0]) }
        let heard = Latch()
        let watch = ControlPeer(fd: pair[0]).watchHangUp { heard.release() }
        #expect(!watch.hasHungUp)
        close(pair[1])
        #expect(heard.wait(until: .after(120)), "the client's close woke the watch")
        #expect(watch.hasHungUp)
        watch.cancel()

        var quiet: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &quiet) == 0)
        defer { close(quiet[0]); close(quiet[1]) }
        let idle = ControlPeer(fd: quiet[0]).watchHangUp { Issue.record("nobody hung up") }
        idle.cancel()
        #expect(!idle.hasHungUp)
        #expect(!ControlPeer.none.watchHangUp { Issue.record("no client") }.hasHungUp)
    }

    @Test func aProcessExitIsSeenOnItsPidfd() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/cat")
        let input = Pipe()
        process.standardInput = input
        try process.run()
        guard case .watching(let exit) = ProcessExit.open(pid: process.processIdentifier) else {
            Issue.record("this kernel refuses pidfds")
            return
        }
        #expect(!exit.wait(timeout: .zero), "cat runs until its input closes")
        try input.fileHandleForWriting.close()
        #expect(exit.wait(timeout: .seconds(120)))
        process.waitUntilExit()
    }
}
