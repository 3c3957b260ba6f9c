import Foundation
import Testing
import TestPool

/// Issue 39: `rec save` never claims what it does not hold. The report keeps what was asked
/// beside what was saved and says why they differ; a range recorded but no longer held anywhere
/// exits 1 with the clip kept, so a script does not take it for the whole range.
@Suite(.blocking) struct SaveShortfallCLITests {
    typealias Sandbox = BackgroundSessionTests.Sandbox

    /// A 1 s ring, no file, 10 s recorded: the last 8 s are not all held.
    @Test func aRangeTheRingLetGoExitsOneAndKeepsTheClip() throws {
        let box = try Sandbox()
        #expect(try box.rec(["start", "--source", "test:320x240@30", "--buffer", "1s", "--no-file"]).status == 0)
        try box.waitForFrames(300)
        let save = try box.rec(["save", "--last", "8s", "-o", "last.mp4", "--json"])
        #expect(save.status == 1, "\(save.output) \(save.error)")
        #expect(save.error.contains("no longer held"), "\(save.error)")
        let report = NetworkClip.object(save.output)
        let requested = try #require(report["requested"] as? [String: Any])
        let saved = try #require(report["saved"] as? [String: Any])
        let (askedFrom, askedTo) = (requested["from"] as? Double ?? .nan, requested["to"] as? Double ?? .nan)
        #expect(abs(askedTo - askedFrom - 8) < 0.001, "requested \(requested)")
        #expect((saved["from"] as? Double ?? 0) > askedFrom + 5, "saved \(saved) of \(requested)")
        #expect(report["shortfall"] as? String == "not_held")
        #expect(FileManager.default.fileExists(atPath: box.path("last.mp4")))
        let text = try box.rec(["save", "--last", "8s", "-o", "again.mp4"])
        #expect(text.status == 1 && text.output.contains("of requested") && text.output.contains("no longer held"), "\(text.output)")
        try box.rec(["stop"])
    }

    /// A range that begins before the session did holds everything there is: exit 0, and the
    /// report says what was asked and why the clip is shorter.
    @Test func aRangeBeforeTheSessionBeganIsSavedWithWhatThereIs() throws {
        let box = try Sandbox()
        #expect(try box.rec(["start", "--source", "test:320x240@30", "--no-file"]).status == 0)
        try box.waitForFrames(60)
        let save = try box.rec(["save", "--last", "60s", "-o", "all.mp4", "--json"])
        #expect(save.status == 0, "\(save.error)")
        let report = NetworkClip.object(save.output)
        let requested = try #require(report["requested"] as? [String: Any])
        #expect((requested["from"] as? Double ?? 0) < -50, "requested \(requested)")
        #expect((report["saved"] as? [String: Any])?["from"] as? Double == 0)
        #expect(report["shortfall"] as? String == "before_session")
        try box.rec(["stop"])
    }

    /// From several sessions, each row of the text says why its clip is shorter than asked, as
    /// one session's save and `--json` do (the rows named nothing).
    @Test func eachSessionsRowSaysWhyItsClipIsShorter() throws {
        let box = try Sandbox()
        for name in ["a", "b"] {
            #expect(try box.rec(["start", "--session", name, "--source", "test:160x96@30", "--no-file"]).status == 0)
            try box.waitForFrames(30, session: name)
        }
        try FileManager.default.createDirectory(atPath: box.path("clips"), withIntermediateDirectories: true)
        let save = try box.rec(["save", "--session", "a,b", "--last", "60s", "-o", "clips/"])
        let rows = save.output.split(separator: "\n").filter { $0.hasPrefix("a:") || $0.hasPrefix("b:") }
        #expect(save.status == 0 && rows.count == 2 && rows.allSatisfy { $0.contains("before the session began") }, "\(save.output) \(save.error)")
        for name in ["a", "b"] { try box.rec(["stop", "--session", name]) }
    }
}
