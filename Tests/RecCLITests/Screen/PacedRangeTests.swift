import Foundation
import Testing
import TestServers
import TestPool

/// Issue 43: a range of a paced screen (rec repeats a still picture once a second) is what the
/// screen showed: it starts with the picture on screen at its start, at 0, lasts what was asked,
/// and the report's saved range is the asked one. Before, `--from 4s --to 6s` of a still screen
/// reported `0:05.000–0:07.000` (the next capture on), and another run made 3 frames lasting 3 s.
/// Against Xvfb, through rec's x11grab source; the clips are decoded by ffmpeg and played by mpv.
@Suite(.blocking, .serialized) struct PacedRangeTests {
    typealias Colour = ScreenFrames.Colour

    /// The saved and requested ranges of `rec save --json`.
    static func ranges(_ output: String) -> (saved: [Double], requested: [Double]) {
        let report = NetworkClip.object(output)
        func span(_ key: String) -> [Double] {
            let s = (report["save"] as? [String: Any])?[key] as? [String: Any] ?? report[key] as? [String: Any] ?? [:]
            return [s["from"] as? Double ?? -1, s["to"] as? Double ?? -1]
        }
        return (span("saved"), span("requested"))
    }

    static func duration(_ path: String) throws -> Double {
        let out = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
        return Double(String(decoding: out.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    @Test func aStillScreenAndAChangeInsideTheRangeAreSavedAsShown() throws {
        let world = try ScreenWorld()
        try world.x.paint("red")
        // A 4 s buffer: the still range and the change are saved from it, and an older range,
        // later, from the recording file.
        let start = try world.rec(["start", "--source", "x11", "-o", "screen.mp4", "--buffer", "4s"])
        try #require(start.status == 0, "rec start: \(start.error)")
        try world.waitUntil(6.3)

        // A still screen: pictures about a second apart, none at 3.5 s.
        let still = try world.rec(["save", "--from", "3.5s", "--to", "5.5s", "-o", "still.mp4", "--json"])
        try #require(still.status == 0, "rec save: \(still.error)")
        let stillRanges = Self.ranges(still.output)
        #expect(stillRanges.saved == [3.5, 5.5] && stillRanges.requested == [3.5, 5.5], "\(still.output)")
        let clip = try ScreenFrames(world.path("still.mp4"))
        #expect(clip.frames.first?.time == 0 && clip.frames.first?.key == true, "\(clip.frames.map { ($0.time, $0.key) })")
        #expect(clip.frames.allSatisfy { $0.shows(.red, at: 280, 20) })
        #expect(abs(try Self.duration(world.path("still.mp4")) - 2) < 0.02)

        // A change: lime from the next capture on. The range starts half a second before the
        // last red picture ends and goes on past the change.
        let before = try world.ringEnd()
        try world.x.paint("lime")
        let captured = (NetworkClip.object(try world.rec(["status", "--json"]).output)["frames"] as? Int) ?? 0
        try #require(try world.rec(["status", "--wait-frames", "\(captured + 2)", "--timeout", "30s"]).status == 0)
        let from = before - 0.5
        try world.waitUntil(from + 3.2)
        let change = try world.rec(["save", "--from", String(format: "%.3fs", from), "--to", String(format: "%.3fs", from + 3),
                                    "-o", "change.mp4", "--json"])
        try #require(change.status == 0, "rec save: \(change.error)")
        // The still screen again, from the file: the ring let 1.5–3.5 s go long ago.
        let old = try world.rec(["save", "--from", "1.5s", "--to", "3.5s", "-o", "old.mp4", "--json"])
        try #require(old.status == 0, "rec save: \(old.error)")
        #expect(try world.rec(["stop"]).status == 0)
        let oldRanges = Self.ranges(old.output)
        #expect(oldRanges.saved == [1.5, 3.5] && old.output.contains("\"source\":\"file\""), "\(old.output)")
        let oldClip = try ScreenFrames(world.path("old.mp4"))
        #expect(oldClip.frames.first?.time == 0 && oldClip.frames.allSatisfy { $0.shows(.red, at: 280, 20) },
                "\(oldClip.frames.map { ($0.time, $0.key) })")
        #expect(abs(try Self.duration(world.path("old.mp4")) - 2) < 0.02)
        let changeRanges = Self.ranges(change.output)
        #expect(abs(changeRanges.saved[0] - from) < 0.0005 && abs(changeRanges.saved[1] - (from + 3)) < 0.0005, "\(change.output)")

        // When the recording shows lime first, on the session's clock.
        let recording = try ScreenFrames(world.path("screen.mp4"))
        let lime = try #require(recording.frames.first { $0.shows(.lime, at: 280, 20) }?.time)
        let cut = try ScreenFrames(world.path("change.mp4"))
        #expect(cut.frames.first?.time == 0 && cut.frames.first?.shows(.red, at: 280, 20) == true,
                "change.mp4 starts \(cut.frames.first.map { "\($0.time) \($0.rgb(280, 20))" } ?? "empty")")
        let firstLime = try #require(cut.frames.first { $0.shows(.lime, at: 280, 20) }?.time)
        #expect(abs(firstLime - (lime - from)) < 0.012, "lime at \(firstLime) s in the clip, \(lime - from) s after its start in the recording")
        #expect(abs(try Self.duration(world.path("change.mp4")) - 3) < 0.02)
        // mpv shows what ffmpeg decodes: the red picture first and the lime one last (32x24
        // cells of luma, normalised: the mean distance between the two pictures is about 0.14).
        let reference = try Players.ffmpeg(world.path("change.mp4"), width: 320, height: 240)
        let mpv = try Players.mpv(world.path("change.mp4"), width: 320, height: 240)
        func distance(_ a: Signature?, _ b: Signature?) -> Double {
            guard let a, let b, !a.values.isEmpty else { return .infinity }
            return zip(a.values, b.values).map { abs($0 - $1) }.reduce(0, +) / Double(a.values.count)
        }
        #expect(distance(mpv.frames.first, reference.first) < 0.02 && distance(mpv.frames.last, reference.last) < 0.02
                && distance(reference.first, reference.last) > 0.1,
                "mpv \(mpv.frames.map { $0.values.prefix(2) }), ffmpeg \(reference.map { $0.values.prefix(2) }) \(mpv.log.suffix(300))")
    }
}
