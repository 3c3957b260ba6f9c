import Foundation
import Glibc
import Testing
import TestServers

/// Issue 22, X11: a real headless X server (Xvfb) recorded through rec's x11grab source; what
/// the screen showed, and when, read back from rec's files and clips by the ffmpeg CLI.
@Suite(.serialized) struct ScreenRecordTests {
    typealias Colour = ScreenFrames.Colour

    /// The root painted red with a yellow window on it; during the session the root turns lime and
    /// the window moves. Pictures from before the change show the first, pictures from after it
    /// the second, in the recording and in clips saved from the ring.
    @Test func coloursAndAMovedWindowAtTheirTimes() throws {
        let world = try ScreenWorld()
        try world.x.paint("red")
        let window = try world.x.launch("xmessage", ["-geometry", "100x60+20+20", "-bg", "yellow", "-fg", "yellow", "."])
        defer { window.kill() }
        let id = try world.x.run("xdotool", ["search", "--sync", "--onlyvisible", "--name", "^xmessage$"]).output
            .split(separator: "\n").first.map(String.init) ?? ""
        try #require(!id.isEmpty, "xmessage's window never showed")
        let start = try world.rec(["start", "--source", "x11", "--cursor", "off", "-o", "screen.mp4"])
        try #require(start.status == 0, "rec start: \(start.error)")
        try world.waitUntil(1.5)
        // Pictures are counted as they are captured: the first `old` were captured before the
        // change, and every one from the `new`-th on after it. Packets in the ring up to `before`
        // are of pictures captured before it too.
        let before = try world.ringEnd()
        let old = try Self.captured(world)
        try world.x.paint("lime")
        try world.x.run("xdotool", ["windowmove", "--sync", id, "200", "150"])
        let new = try Self.captured(world)
        try #require(try world.rec(["status", "--wait-frames", "\(new + 2)", "--timeout", "30s"]).status == 0)
        // At most a repeat (a second) after the last picture from before the change.
        let after = try world.ringEnd() + 1.1
        try world.waitUntil(after + 1.2)
        let saves = [("red.mp4", ["--from", "0.2s", "--to", String(format: "%.3fs", before)]),
                     ("lime.mp4", ["--from", String(format: "%.3fs", after), "--to", String(format: "%.3fs", after + 1)])]
        for (name, range) in saves {
            let save = try world.rec(["save"] + range + ["-o", name])
            #expect(save.status == 0, "rec save \(range): \(save.error)")
        }
        #expect(try world.rec(["stop"]).status == 0)

        let recording = try ScreenFrames(world.path("screen.mp4"))
        #expect(recording.width == 320 && recording.height == 240)
        try #require(recording.frames.count > new && old > 0, "\(recording.frames.count) pictures, \(old) before, \(new) after")
        for f in recording.frames[..<old] {
            #expect(f.shows(.red, at: 280, 20) && f.shows(.yellow, at: 112, 72) && f.shows(.red, at: 292, 202), "at \(f.time) s: \(f.rgb(280, 20))")
        }
        for f in recording.frames[new...] {
            #expect(f.shows(.lime, at: 280, 20) && f.shows(.lime, at: 112, 72) && f.shows(.yellow, at: 292, 202), "at \(f.time) s: \(f.rgb(280, 20))")
        }
        // The change is recorded at the first picture captured after it, at its own time.
        let first = recording.frames.firstIndex { $0.shows(.lime, at: 280, 20) }
        #expect(first.map { (old...new).contains($0) && recording.frames[$0].time > before } == true,
                "first lime picture \(first ?? -1) at \(first.map { recording.frames[$0].time } ?? -1) s; \(old) before, \(new) after, ring at \(before) s")
        for (name, colour) in [("red.mp4", Colour.red), ("lime.mp4", Colour.lime)] {
            let clip = try ScreenFrames(world.path(name))
            #expect(!clip.frames.isEmpty && clip.frames.allSatisfy { $0.shows(colour, at: 280, 20) }, "\(name) is not all \(colour)")
            #expect(clip.frames.first?.key == true)
        }
    }

    /// The pointer drawn into the pictures (`--cursor on`, the default) or not (`--cursor off`):
    /// the X server's default pointer, an X, over the red root at (100, 80) (not where a new
    /// server puts it, the middle: `xdotool mousemove --sync` waits for a move).
    @Test func thePointerIsDrawnOnlyWhenAsked() throws {
        let world = try ScreenWorld()
        try world.x.paint("red")
        try world.x.run("xdotool", ["mousemove", "--sync", "100", "80"])
        var differing: [String: Int] = [:]
        for cursor in ["on", "off"] {
            let r = try world.rec(["record", "--source", "x11", "--cursor", cursor, "--frames", "2", "-o", "\(cursor).mp4"])
            try #require(r.status == 0, "rec record --cursor \(cursor): \(r.error)")
            let frame = try #require(try ScreenFrames(world.path("\(cursor).mp4")).frames.first)
            var count = 0
            for y in 70..<90 { for x in 90..<110 where !frame.shows(.red, at: x, y) { count += 1 } }
            differing[cursor] = count
            #expect(frame.shows(.red, at: 20, 20))
        }
        #expect((differing["on"] ?? 0) > 20, "pointer pixels with --cursor on: \(differing)")
        #expect(differing["off"] == 0, "pointer pixels with --cursor off: \(differing)")
    }

    /// A static screen: one picture a second in the ring and file (not thirty), a keyframe at
    /// least every second, and a save of any two seconds inside it has pictures, starts on a
    /// keyframe, lasts two seconds and plays in mpv (and one of them in Chromium). The static span is six seconds
    /// of real time (capture is real time), enough for saves at three places in it.
    @Test func aStaticScreenStillGivesSavesWithPicturesAndKeyframes() throws {
        let world = try ScreenWorld()
        try world.x.paint("blue")
        let start = try world.rec(["start", "--source", "x11", "--cursor", "off", "-o", "static.mp4"])
        try #require(start.status == 0, "rec start: \(start.error)")
        try world.waitUntil(6.2)
        for (from, name) in [(0.4, "a.mp4"), (2.1, "b.mp4"), (3.95, "c.mp4")] {
            let save = try world.rec(["save", "--from", String(format: "%.2fs", from), "--to", String(format: "%.2fs", from + 2),
                                      "-o", name, "--json"])
            try #require(save.status == 0, "rec save from \(from): \(save.error)")
            let clip = try ScreenFrames(world.path(name))
            #expect(clip.frames.count >= 2, "\(name): \(clip.frames.map(\.time))")
            #expect(clip.frames.first?.key == true && clip.frames.first?.time == 0, "\(name): \(clip.frames.map { ($0.time, $0.key) })")
            #expect(clip.frames.allSatisfy { $0.shows(.blue, at: 160, 20) })
            let duration = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", world.path(name)])
            let seconds = Double(String(decoding: duration.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            #expect(abs(seconds - 2) < 0.05, "\(name) lasts \(seconds) s")
            // The players show the picture ffmpeg decodes (32x24 cells of luma, within 4 levels).
            let reference = try #require(try Players.ffmpeg(world.path(name), width: 320, height: 240).first).values
            let same: (Signature) -> Bool = { s in zip(s.values, reference).allSatisfy { abs($0 - $1) < 4 } }
            let mpv = try Players.mpv(world.path(name), width: 320, height: 240)
            #expect(!mpv.frames.isEmpty && mpv.frames.allSatisfy(same), "mpv showed \(mpv.frames.count) pictures of \(name): \(mpv.log.suffix(300))")
            // Chromium takes seconds to start: the middle save, whose range begins between repeats.
            guard name == "b.mp4" else { continue }
            let browser = try Players.chromium(world.path(name), times: [0.5, 1.5])
            #expect(abs(browser.duration - 2) < 0.1 && browser.frames.count == 2, "Chromium: \(browser.duration) s")
            #expect(browser.frames.allSatisfy(same), "Chromium shows \(browser.frames.first?.values.prefix(4) ?? []), ffmpeg \(reference.prefix(4))")
        }
        #expect(try world.rec(["stop"]).status == 0)
        let recording = try ScreenFrames(world.path("static.mp4"))
        let inside = recording.frames.filter { $0.time >= 1 && $0.time < 6 }
        #expect((4...6).contains(inside.count), "a static screen kept \(inside.count) pictures in 5 s: \(inside.map(\.time))")
        let keys = recording.frames.filter(\.key).map(\.time)
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $1 - $0 <= 1.05 }, "keyframes at \(keys)")
    }

    /// One window (`x11:window=ID`): the recording has the window's size and shows the window.
    @Test func oneWindow() throws {
        let world = try ScreenWorld()
        try world.x.paint("red")
        let window = try world.x.launch("xmessage", ["-geometry", "100x60+20+20", "-bg", "yellow", "-fg", "yellow", "."])
        defer { window.kill() }
        let id = try world.x.run("xdotool", ["search", "--sync", "--onlyvisible", "--name", "^xmessage$"]).output
            .split(separator: "\n").first.map(String.init) ?? ""
        try #require(!id.isEmpty)
        let r = try world.rec(["record", "--source", "x11:window=\(id)", "--cursor", "off", "--frames", "2", "-o", "window.mp4"])
        try #require(r.status == 0, "rec record: \(r.error)")
        let clip = try ScreenFrames(world.path("window.mp4"))
        #expect(clip.width == 100 && clip.height == 60, "\(clip.width)x\(clip.height)")
        #expect(clip.frames.first?.shows(.yellow, at: 90, 50) == true)
    }

    /// A preset that names a frame rate asks for a constant-rate file: every grab is kept,
    /// changed or not, one every 1/30 s, where the default preset keeps one a second.
    @Test func aPresetWithAFrameRateKeepsEveryGrab() throws {
        let world = try ScreenWorld()
        try world.x.paint("blue")
        try #"{"base": "default", "fps": 30}"#.write(toFile: world.path("cfr.json"), atomically: true, encoding: .utf8)
        let r = try world.rec(["record", "--source", "x11", "--preset", world.path("cfr.json"), "--frames", "45", "-o", "cfr.mp4"])
        try #require(r.status == 0, "rec record: \(r.error)")
        let times = try ScreenFrames(world.path("cfr.mp4")).frames.map(\.time)
        #expect(times.count == 45)
        // Real grab times: a loaded machine delays some grabs, but none is left out.
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }.sorted()
        #expect(abs(gaps[gaps.count / 2] - 1.0 / 30) < 0.005 && gaps.allSatisfy { $0 < 0.5 }, "gaps \(gaps)")
    }

    /// The pictures the session has captured (`frames` of `rec status --json`).
    static func captured(_ world: ScreenWorld) throws -> Int {
        (NetworkClip.object(try world.rec(["status", "--json"]).output)["frames"] as? Int) ?? -1
    }
}
