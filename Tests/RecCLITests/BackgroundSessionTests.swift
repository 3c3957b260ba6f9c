import Foundation
import Media
import Testing
import TestPool

/// Real background sessions, driven through the `rec` binary as a user would.
@Suite(.blocking) struct BackgroundSessionTests {
    /// A private runtime folder (so tests never meet each other's sessions) and a work folder.
    final class Sandbox: Sendable {
        let folder: String
        let environment: [String: String]

        /// `extra` is added to every command's environment (`RCLONE_CONFIG`, say).
        init(environment extra: [String: String] = [:]) throws {
            folder = try RecBinary.temporaryFolder()
            let runtime = folder + "/run"
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            var env = ProcessInfo.processInfo.environment
            env["XDG_RUNTIME_DIR"] = runtime
            env.removeValue(forKey: "REC_SESSION_CHILD")
            env.merge(extra) { $1 }
            environment = env
        }

        deinit {
            // Stop anything a failed test left running, then clean up.
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder + "/run/rec")) ?? [] {
                _ = try? rec(["stop", "--session", name])
            }
            try? FileManager.default.removeItem(atPath: folder)
        }

        @discardableResult
        func rec(_ arguments: [String]) throws -> RecBinary.Result {
            try RecBinary.run(arguments, in: folder, environment: environment)
        }

        func path(_ name: String) -> String { folder + "/" + name }

        func status(_ session: String = "default") throws -> [String: Any] {
            let r = try rec(["status", "--json", "--session", session])
            return (try JSONSerialization.jsonObject(with: Data(r.output.utf8)) as? [String: Any]) ?? [:]
        }

        /// Waits (bounded) until the session has captured at least `frames` frames: the session
        /// answers `rec status --wait-frames` when its encoder has moved past them.
        func waitForFrames(_ frames: Int, session: String = "default") throws {
            let r = try rec(["status", "--json", "--session", session, "--wait-frames", String(frames), "--timeout", "60s"])
            if r.status != 0 { Issue.record("session \(session) never reached \(frames) frames: \(r.error)") }
        }

        func stamps(_ file: String) throws -> [Int?] {
            try FrameReader.read(path: path(file)).frames.map(\.stamp)
        }
    }

    static func consecutive(_ stamps: [Int?]) -> Bool {
        guard let first = stamps.first ?? nil else { return false }
        return stamps == (first..<(first + stamps.count)).map { Optional($0) }
    }

    @Test func startSaveStatusStop() throws {
        let box = try Sandbox()
        let start = try box.rec(["start", "--source", "test:320x240@30", "--output", "rec.mp4"])
        #expect(start.status == 0, "\(start.error)")
        #expect(start.output.contains("started"))
        try box.waitForFrames(100)

        // An exact past range: frames 30 ..< 60.
        let save = try box.rec(["save", "--from", "1s", "--to", "2s", "-o", "past.mp4", "--json"])
        #expect(save.status == 0, "\(save.error)")
        #expect(try box.stamps("past.mp4") == (30..<60).map { Optional($0) })
        let report = try JSONSerialization.jsonObject(with: Data(save.output.utf8)) as? [String: Any]
        #expect(report?["frames"] as? Int == 30)
        #expect(report?["dropped_in_range"] as? Int == 0)

        // The last second, in Matroska (re-encoded head): 30 consecutive frames.
        #expect(try box.rec(["save", "--last", "1s", "-o", "last.mkv"]).status == 0)
        let last = try box.stamps("last.mkv")
        #expect(last.count == 30 && Self.consecutive(last))

        // A range reaching 1 s into the future: the save waits for it.
        let before = try box.status()["frames"] as? Int ?? 0
        let future = try box.rec(["save", "--from", "-1s", "--to", "+1s", "-o", "future.mp4"])
        #expect(future.status == 0, "\(future.error)")
        let f = try box.stamps("future.mp4")
        #expect(f.count == 60 && Self.consecutive(f))
        #expect((f.last ?? 0) ?? 0 >= before)

        // Status fields.
        let s = try box.status()
        #expect(s["state"] as? String == "recording")
        #expect(s["fps"] as? Double == 30)
        #expect(s["dropped_late"] as? Int == 0)
        #expect((s["ring_bytes"] as? Int ?? 0) > 0)
        #expect((s["output"] as? String)?.hasSuffix("/rec.mp4") == true)

        // A snapshot is a JPEG of a real frame.
        #expect(try box.rec(["snapshot", "-o", "still.jpg"]).status == 0)
        #expect(try FrameReader.read(path: box.path("still.jpg")).frames.first?.stamp != nil)

        let stop = try box.rec(["stop", "--json"])
        #expect(stop.status == 0, "\(stop.error)")
        let summary = try JSONSerialization.jsonObject(with: Data(stop.output.utf8)) as? [String: Any]
        let recorded = try box.stamps("rec.mp4")
        #expect(recorded == (0..<recorded.count).map { Optional($0) })
        #expect(summary?["frames"] as? Int == recorded.count)
        #expect(try box.rec(["status"]).status == 1)
    }

    @Test func olderThanTheRingComesFromTheFile() throws {
        let box = try Sandbox()
        #expect(try box.rec(["start", "--source", "test:320x240@30", "--buffer", "2s", "--output", "rec.mkv"]).status == 0)
        try box.waitForFrames(180)
        let save = try box.rec(["save", "--from", "0.2s", "--to", "1.2s", "-o", "old.mp4", "--json"])
        #expect(save.status == 0, "\(save.error)")
        #expect(save.output.contains("\"source\":\"file\""))
        #expect(try box.stamps("old.mp4") == (6..<36).map { Optional($0) })
        // Without a file, the same range is simply not held, and the error says what is.
        try box.rec(["stop"])
    }

    @Test func ringOnlySessionSaysWhatItHolds() throws {
        let box = try Sandbox()
        #expect(try box.rec(["start", "--source", "test:320x240@30", "--buffer", "2s", "--no-file"]).status == 0)
        try box.waitForFrames(150)
        let save = try box.rec(["save", "--from", "0s", "--to", "1s", "-o", "gone.mp4"])
        #expect(save.status == 64)
        #expect(save.error.contains("holds"))
        #expect(!FileManager.default.fileExists(atPath: box.path("gone.mp4")))
        try box.rec(["stop"])
    }

    @Test func concurrentSavesAreEachExact() throws {
        let box = try Sandbox()
        #expect(try box.rec(["start", "--source", "test:320x240@30", "--no-file"]).status == 0)
        try box.waitForFrames(100)
        let ranges = [(0, 30), (15, 45), (40, 90), (61, 62)]
        DispatchQueue.concurrentPerform(iterations: ranges.count) { i in
            let (a, b) = ranges[i]
            _ = try? box.rec(["save", "--from", String(format: "%.4f", max(0, Double(a) - 0.5) / 30), "--to",
                              String(format: "%.4f", (Double(b) - 0.5) / 30), "-o", "c\(i).mp4"])
        }
        for (i, (a, b)) in ranges.enumerated() {
            #expect(try box.stamps("c\(i).mp4") == (a..<b).map { Optional($0) })
        }
        try box.rec(["stop"])
    }

    @Test func wallClockTimesSelectByRealTime() throws {
        let box = try Sandbox()
        #expect(try box.rec(["start", "--source", "test:320x240@30", "--no-file"]).status == 0)
        try box.waitForFrames(90)
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let now = Date()
        let save = try box.rec(["save", "--from", f.string(from: now.addingTimeInterval(-2)),
                                "--to", f.string(from: now.addingTimeInterval(-1)), "-o", "wall.mp4"])
        #expect(save.status == 0, "\(save.error)")
        let stamps = try box.stamps("wall.mp4")
        #expect(stamps.count == 30 && Self.consecutive(stamps))
        try box.rec(["stop"])
    }

    @Test func twoSessionsSideBySideAndNamesAreExclusive() throws {
        let box = try Sandbox()
        #expect(try box.rec(["start", "--session", "a", "--source", "test:320x240@30", "--no-file"]).status == 0)
        #expect(try box.rec(["start", "--session", "b", "--source", "test:160x120@15", "--no-file"]).status == 0)
        let again = try box.rec(["start", "--session", "a", "--source", "test", "--no-file"])
        #expect(again.status == 64)
        #expect(again.error.contains("already running"))
        try box.waitForFrames(40, session: "a")
        try box.waitForFrames(20, session: "b")
        let saveB = try box.rec(["save", "--session", "b", "--from", "0s", "--to", "1s", "-o", "b.mp4"])
        #expect(saveB.status == 0, "\(saveB.error)")
        #expect(try box.stamps("b.mp4") == (0..<15).map { Optional($0) })
        let all = try box.rec(["status", "--all"])
        let rows = all.output.split(separator: "\n")
        #expect(rows.contains { $0.hasPrefix("a ") && $0.contains("recording") } && rows.contains { $0.hasPrefix("b ") && $0.contains("recording") },
                "\(all.output)")
        #expect(try box.rec(["stop", "--session", "a"]).status == 0)
        #expect(try box.rec(["stop", "--session", "b"]).status == 0)
    }

    @Test func aKilledSessionLeavesAStaleSocketThatIsCleanedUp() throws {
        let box = try Sandbox()
        #expect(try box.rec(["start", "--source", "test:320x240@30", "--no-file"]).status == 0)
        let pidText = try String(contentsOfFile: box.folder + "/run/rec/default/pid", encoding: .utf8)
        let pid = try #require(Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)))
        let exit = try #require(Observe.exit(of: pid))
        kill(pid, SIGKILL)
        #expect(exit.wait(timeout: .seconds(10)))
        #expect(try box.rec(["status"]).status == 1)
        let restart = try box.rec(["start", "--source", "test:320x240@30", "--no-file"])
        #expect(restart.status == 0, "\(restart.error)")
        try box.rec(["stop"])
    }

    @Test func aSourceThatFailsToStartLeavesNothingRunning() throws {
        let box = try Sandbox()
        let start = try box.rec(["start", "--source", "file:/nonexistent/video.mp4", "--no-file"])
        #expect(start.status == 64)
        #expect(start.error.contains("no such file"))
        #expect(try box.rec(["status"]).status == 1)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: box.folder + "/run/rec")) ?? []).isEmpty)
    }

    @Test func durationStopsTheSessionByItself() throws {
        let box = try Sandbox()
        #expect(try box.rec(["start", "--source", "test:320x240@30", "--duration", "1s", "--output", "short.mp4"]).status == 0)
        let pidText = try String(contentsOfFile: box.folder + "/run/rec/default/pid", encoding: .utf8)
        let pid = try #require(Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)))
        let exit = try #require(Observe.exit(of: pid))
        #expect(exit.wait(timeout: .seconds(60)), "the session ends by itself after its second")
        #expect(try box.rec(["status"]).status == 1)
        #expect(try box.stamps("short.mp4") == (0..<30).map { Optional($0) })
    }
}

extension BackgroundSessionTests {
    @Test func aSaveSpanningOldSegmentsIsOneExactClip() throws {
        let box = try Sandbox()
        let start = try box.rec(["start", "--source", "test:320x240@30", "--buffer", "1s", "--segment", "1s",
                                 "--output", "seg.mp4"])
        #expect(start.status == 0, "\(start.error)")
        try box.waitForFrames(130)
        let s = try box.status()
        #expect((s["output"] as? String)?.contains("/seg-") == true)
        #expect(Int((s["extra"] as? [String: String])?["segments"] ?? "") ?? 0 >= 4)
        // 0.5 s ..< 2.5 s: older than the ring, across the segments starting at 1 s and 2 s.
        let mp4 = try box.rec(["save", "--from", "0.5s", "--to", "2.5s", "-o", "span.mp4", "--json"])
        #expect(mp4.status == 0, "\(mp4.error)")
        #expect(mp4.output.contains("\"source\":\"file\""))
        #expect(try box.stamps("span.mp4") == (15..<75).map { Optional($0) })
        let mkv = try box.rec(["save", "--from", "0.9s", "--to", "2.1s", "-o", "span.mkv"])
        #expect(mkv.status == 0, "\(mkv.error)")
        #expect(try box.stamps("span.mkv") == (27..<63).map { Optional($0) })
        // A clip may not be written over one of the session's own segments.
        let own = try #require(s["output"] as? String)
        #expect(try box.rec(["save", "--last", "1s", "-o", own, "--force"]).status == 64)
        try box.rec(["stop"])
    }
}

extension BackgroundSessionTests {
    /// Issue 39: a save served from segment files (older than the ring) carries the sound the
    /// segments hold, in sync, across a segment boundary. Before, such a clip had pictures only.
    @Test func aSaveFromSegmentsCarriesTheirSound() throws {
        let box = try Sandbox()
        let start = try box.rec(["start", "--source", "test:320x240@30", "--audio", "test", "--buffer", "1s", "--segment", "2s",
                                 "--output", "seg.mkv"])
        #expect(start.status == 0, "\(start.error)")
        try box.waitForFrames(240)
        // 0.5 s ..< 3.5 s: older than the ring, across the segment starting at 2 s.
        let save = try box.rec(["save", "--from", "0.5s", "--to", "3.5s", "-o", "span.mp4", "--json"])
        #expect(save.status == 0, "\(save.error)")
        #expect(save.output.contains("\"source\":\"file\""))
        #expect(try box.stamps("span.mp4") == (15..<105).map { Optional($0) })
        let seconds = try SoundProbe.audioDuration(in: box.path("span.mp4"))
        #expect(abs(seconds - 3) < 0.05, "\(seconds) s of sound in a 3 s clip")
        // The clicks at 1, 2 and 3 s land on their flashes.
        let errors = try SoundProbe.syncErrors(in: box.path("span.mp4")).map(\.error)
        #expect(errors.count >= 2 && errors.allSatisfy { abs($0) < 1.0 / 30 }, "click − flash: \(errors)")
        try box.rec(["stop"])
    }
}
