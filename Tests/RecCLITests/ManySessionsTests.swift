import Foundation
import Media
import RecClient
import RecCore
@testable import SessionControl
import SessionControl
import Testing
import TestPool

/// A box with several cameras: `rec status --all` asks every session at once, and
/// `rec save --session a,b,c` / `--all` saves the same wall-clock range from each.
@Suite(.blocking) struct ManySessionsTests {
    typealias Sandbox = BackgroundSessionTests.Sandbox
    static let names = ["a", "b", "c"]

    /// Three stand-in cameras, each with at least `frames` frames.
    static func startThree(_ box: Sandbox, frames: Int) throws {
        try startSessions(names, in: box, frames: frames)
    }

    /// Stand-in cameras named `names`, each with at least `frames` frames.
    static func startSessions(_ names: [String], in box: Sandbox, frames: Int) throws {
        for name in names {
            let start = try box.rec(["start", "--session", name, "--source", "test:320x180@30", "--no-file"])
            #expect(start.status == 0, "\(start.error)")
        }
        for name in names { try box.waitForFrames(frames, session: name) }
    }

    static func json(_ text: String) -> [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]) ?? []
    }

    static func pid(_ box: Sandbox, _ name: String) throws -> Int32 {
        let text = try String(contentsOfFile: box.folder + "/run/rec/\(name)/pid", encoding: .utf8)
        return try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test func statusAllAsksEverySessionAndNamesTheOneThatDoesNotAnswer() throws {
        let box = try Sandbox()
        try Self.startThree(box, frames: 15)
        let all = try box.rec(["status", "--all", "--json"])
        #expect(all.status == 0, "\(all.error)")
        let rows = Self.json(all.output)
        #expect(rows.map { $0["session"] as? String } == Self.names)
        for row in rows {
            #expect(row["state"] as? String == "recording")
            #expect((row["frames"] as? Int ?? 0) >= 15, "\(row)")
            #expect(row["source"] as? String == "test pattern 320x180@30")
            #expect(row["ring_end"] is Double || row["ring_end"] is Int, "\(row)")
            #expect(row["dropped"] is Int, "\(row)")
        }

        // A session that cannot answer (stopped) is named as such; the others are still listed.
        let stopped = try Self.pid(box, "b")
        kill(stopped, SIGSTOP)
        defer { kill(stopped, SIGCONT) }
        let partial = try box.rec(["status", "--all", "--json", "--timeout", "1s"])
        #expect(partial.status == 0, "\(partial.error)")
        let states = Dictionary(uniqueKeysWithValues: Self.json(partial.output).map { ($0["session"] as? String ?? "", $0) })
        #expect(states["b"]?["state"] as? String == "not-answering")
        #expect((states["b"]?["last_error"] as? String)?.contains("did not answer") == true, "\(states["b"] ?? [:])")
        #expect(states["a"]?["state"] as? String == "recording" && states["c"]?["state"] as? String == "recording")
        #expect((states["c"]?["frames"] as? Int ?? 0) >= 15)
        let text = try box.rec(["status", "--all", "--timeout", "1s"])
        let lines = text.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("SESSION") == true && lines.count == 4, "\(text.output)")
        #expect(lines.contains { $0.hasPrefix("b ") && $0.contains("not-answering") }, "\(text.output)")
        kill(stopped, SIGCONT)
        for name in Self.names { try box.rec(["stop", "--session", name]) }
    }

    @Test func oneSaveFromThreeSessionsIsTimeAligned() throws {
        let box = try Sandbox()
        try Self.startThree(box, frames: 90)
        try FileManager.default.createDirectory(atPath: box.path("clips"), withIntermediateDirectories: false)
        let save = try box.rec(["save", "--session", "a,b,c", "--last", "2s", "-o", "clips/", "--json"])
        #expect(save.status == 0, "\(save.error)")
        let rows = Self.json(save.output)
        #expect(rows.map { $0["session"] as? String } == Self.names)
        var starts: [Double] = [], ends: [Double] = [], counts: [Int] = []
        for (name, row) in zip(Self.names, rows) {
            let report = try #require(row["save"] as? [String: Any], "\(row)")
            #expect((report["path"] as? String)?.hasSuffix("/clips/\(name).mp4") == true)
            let wall = try #require(row["saved_unix"] as? [String: Double], "\(row)")
            starts.append(try #require(wall["from"]))
            ends.append(try #require(wall["to"]))
            let stamps = try box.stamps("clips/\(name).mp4")
            #expect(stamps.count == report["frames"] as? Int)
            // A loaded machine may drop a frame late while recording; the report counts it.
            let dropped = report["dropped_in_range"] as? Int ?? 0
            if dropped == 0 { #expect(BackgroundSessionTests.consecutive(stamps), "\(name): \(stamps)") }
            counts.append(stamps.count + dropped)
        }
        // The same 2 s in each, cut by each session's own clock: the same length within a frame,
        // and the same wall-clock instants within a frame.
        let frame = 1.0 / 30 + 0.002
        #expect((counts.max() ?? 0) - (counts.min() ?? 0) <= 1, "\(counts)")
        #expect(counts.allSatisfy { (59...61).contains($0) }, "\(counts)")
        #expect((starts.max() ?? 0) - (starts.min() ?? 0) <= frame, "\(starts)")
        #expect((ends.max() ?? 0) - (ends.min() ?? 0) <= frame, "\(ends)")

        // --all with a pattern, as text.
        let all = try box.rec(["save", "--all", "--from", "-1s", "-o", "clip-%s.mp4"])
        #expect(all.status == 0, "\(all.error)")
        for name in Self.names {
            #expect(all.output.contains("\(name): \(box.path("clip-\(name).mp4")), "), "\(all.output)")
            #expect(try !box.stamps("clip-\(name).mp4").isEmpty)
        }

        // Refused before anything is written.
        let refusals: [([String], String)] = [
            (["--session", "a,b,c", "--from", "1s", "--to", "2s", "-o", "new/"], "counts from each session's own start"),
            (["--session", "a,b", "--last", "1s", "-o", "one.mp4"], "names one file"),
            (["--session", "a,b,c", "--last", "1s", "-o", "clip-%s.mp4"], "already exists"),
            (["--session", "a,zz,c", "--last", "1s", "-o", "new-%s.mp4"], "no session 'zz' is running"),
            (["--all", "--session", "a", "--last", "1s", "-o", "new/"], "not both"),
        ]
        for (arguments, message) in refusals {
            let r = try box.rec(["save"] + arguments)
            #expect(r.status == 64, "\(arguments): \(r.error)")
            #expect(r.error.contains(message), "\(arguments): \(r.error)")
        }
        let written = try FileManager.default.contentsOfDirectory(atPath: box.folder).filter { $0.hasPrefix("new") || $0 == "one.mp4" }
        #expect(written.isEmpty, "\(written)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: box.path("clips")).sorted() == ["a.mp4", "b.mp4", "c.mp4"])
        for name in Self.names { try box.rec(["stop", "--session", name]) }
    }
}

/// `rec status --all`'s rows, from what each session answered.
@Suite(.blocking) struct SessionTableTests {
    static func listing(_ name: String, _ presence: SessionPresence, source: String = "rtsp://admin:pw@cam/live") -> SessionListing {
        SessionListing(folder: SessionFolder(name: name, path: "/run/rec/" + name), presence: presence,
                       info: SessionInfo(name: name, pid: 7, source: source, startedAt: Date(timeIntervalSince1970: 0)))
    }

    @Test func rowsSayWhatEachSessionAnsweredAndNeverShowCredentials() {
        let status = StatusBody(state: .recording, source: "rtsp://admin:pw@cam/live", frames: 900, droppedLate: 2,
                                droppedByDriver: 1, lastError: "camera silent for 3 s", extra: ["ring_start": "1.500", "ring_end": "31.000"])
        let recording = SessionRow(Self.listing("door", .running(pid: 7, info: nil)), answer: .success(.ok(.status(status))))
        #expect(recording == SessionRow(session: "door", state: "recording", source: "rtsp://cam/live", frames: 900,
                                        ringStart: 1.5, ringEnd: 31, dropped: 3, lastError: "camera silent for 3 s"))
        let silent = SessionRow(Self.listing("yard", .running(pid: 8, info: nil)),
                                answer: .failure(.runtime("session 'yard' did not answer within 1.0 seconds")))
        #expect(silent.state == "not-answering" && silent.source == "rtsp://cam/live" && silent.frames == nil)
        let stale = SessionRow(Self.listing("shed", .stale(reason: "pid 9 is not running")), answer: nil)
        #expect(stale.state == "stale" && stale.lastError?.contains("pid 9 is not running") == true)

        let text = SessionTable.text([recording, silent, stale])
        #expect(!text.contains("pw"))
        #expect(text.split(separator: "\n").map(String.init) == [
            "SESSION  STATE          SOURCE           FRAMES  BUFFER             DROPPED  LAST ERROR",
            "door     recording      rtsp://cam/live     900  0:01.500–0:31.000        3  camera silent for 3 s",
            "yard     not-answering  rtsp://cam/live       -  -                        -  session 'yard' did not answer within 1.0 seconds",
            "shed     stale          rtsp://cam/live       -  -                        -  crashed (pid 9 is not running); cleaned up at the next 'rec start'",
        ])
        #expect(JSONText.encode([recording]).contains(#""ring_start":1.5"#))
    }
}
