import Foundation
import Glibc
import Testing
import TestServers
import TestPool

/// Issue 22, X11: a real headless X server (Xvfb) recorded through rec's x11grab source; what
/// the screen showed, and when, read back from rec's files and clips by the ffmpeg CLI.
@Suite(.blocking, .serialized) struct ScreenRecordTests {
    typealias Colour = ScreenFrames.Colour

    /// The root painted red with a yellow window and the pointer on it, left alone for twenty
    /// seconds, then turned lime with the window moved, in one session. While the screen is
    /// static: a picture a second (not thirty), a keyframe at least every second, and a save of
    /// two seconds anywhere in it has pictures, starts on a keyframe, lasts two seconds and plays
    /// in mpv (one of them in Chromium too). The pointer is drawn in every picture (`--cursor on`,
    /// the default). After the change: pictures from before it show the first screen, pictures
    /// from after it the second, and a clip saved after it is all lime.
    @Test func aStaticScreenThenAChange() throws {
        let world = try ScreenWorld()
        try world.x.paint("red")
        let window = try world.x.launch("xmessage", ["-geometry", "100x60+20+20", "-bg", "yellow", "-fg", "yellow", "."])
        defer { window.kill() }
        let id = try world.x.run("xdotool", ["search", "--sync", "--onlyvisible", "--name", "^xmessage$"]).output
            .split(separator: "\n").first.map(String.init) ?? ""
        try #require(!id.isEmpty, "xmessage's window never showed")
        // The X server's default pointer, an X, on the root away from the window's two places
        // (not where a new server puts it, the middle: `mousemove --sync` waits for a move).
        try world.x.run("xdotool", ["mousemove", "--sync", "250", "100"])
        let start = try world.rec(["start", "--source", "x11", "-o", "screen.mp4"])
        try #require(start.status == 0, "rec start: \(start.error)")
        try world.waitUntil(20.2)
        for (from, name) in [(0.4, "a.mp4"), (6.1, "b.mp4"), (11.95, "c.mp4"), (17.9, "d.mp4")] {
            try Self.expectStaticSave(world, from: from, name: name, inChromium: name == "b.mp4")
        }

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
        let save = try world.rec(["save", "--from", String(format: "%.3fs", after), "--to", String(format: "%.3fs", after + 1),
                                        "-o", "lime.mp4"])
        #expect(save.status == 0, "rec save after the change: \(save.error)")
        #expect(try world.rec(["stop"]).status == 0)

        let recording = try ScreenFrames(world.path("screen.mp4"))
        #expect(recording.width == 320 && recording.height == 240)
        try #require(recording.frames.count > new && old > 0, "\(recording.frames.count) pictures, \(old) before, \(new) after")
        for f in recording.frames[..<old] {
            #expect(f.shows(.red, at: 280, 20) && f.shows(.yellow, at: 112, 72) && f.shows(.red, at: 292, 202), "at \(f.time) s: \(f.rgb(280, 20))")
            #expect(Self.pointerPixels(f, on: .red) > 20, "no pointer at \(f.time) s")
        }
        for f in recording.frames[new...] {
            #expect(f.shows(.lime, at: 280, 20) && f.shows(.lime, at: 112, 72) && f.shows(.yellow, at: 292, 202), "at \(f.time) s: \(f.rgb(280, 20))")
            #expect(Self.pointerPixels(f, on: .lime) > 20, "no pointer at \(f.time) s")
        }
        // The change is recorded at the first picture captured after it, at its own time.
        let first = recording.frames.firstIndex { $0.shows(.lime, at: 280, 20) }
        #expect(first.map { (old...new).contains($0) && recording.frames[$0].time > before } == true,
                "first lime picture \(first ?? -1) at \(first.map { recording.frames[$0].time } ?? -1) s; \(old) before, \(new) after, ring at \(before) s")
        let inside = recording.frames.filter { $0.time >= 1 && $0.time < 20 }
        #expect((18...20).contains(inside.count), "a static screen kept \(inside.count) pictures in 19 s: \(inside.map(\.time))")
        // While the screen is static. (After a change, the next keyframe can be up to two seconds
        // after the last: a change recorded just before a keyframe is due is not one, and the next
        // picture is the repeat a second after it.)
        let keys = recording.frames[..<old].filter(\.key).map(\.time)
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $1 - $0 <= 1.05 }, "keyframes at \(keys)")
        let lime = try ScreenFrames(world.path("lime.mp4"))
        #expect(!lime.frames.isEmpty && lime.frames.allSatisfy { $0.shows(.lime, at: 280, 20) }, "lime.mp4 is not all lime")
        #expect(lime.frames.first?.key == true)
    }

    /// A save of two seconds of the static screen from `from`: at least two pictures, the first a
    /// keyframe at 0, all of the screen as it was, two seconds long (within 50 ms), and mpv (and
    /// Chromium when asked; it takes seconds to start) shows what ffmpeg decodes.
    static func expectStaticSave(_ world: ScreenWorld, from: Double, name: String, inChromium: Bool) throws {
        let save = try world.rec(["save", "--from", String(format: "%.2fs", from), "--to", String(format: "%.2fs", from + 2),
                                        "-o", name, "--json"])
        try #require(save.status == 0, "rec save from \(from): \(save.error)")
        let clip = try ScreenFrames(world.path(name))
        #expect(clip.frames.count >= 2, "\(name): \(clip.frames.map(\.time))")
        #expect(clip.frames.first?.key == true && clip.frames.first?.time == 0, "\(name): \(clip.frames.map { ($0.time, $0.key) })")
        #expect(clip.frames.allSatisfy { $0.shows(.red, at: 280, 20) && $0.shows(.yellow, at: 112, 72) })
        let duration = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", world.path(name)])
        let seconds = Double(String(decoding: duration.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(abs(seconds - 2) < 0.05, "\(name) lasts \(seconds) s")
        // The players show the picture ffmpeg decodes (32x24 cells of luma, within 4 levels).
        let reference = try #require(try Players.ffmpeg(world.path(name), width: 320, height: 240).first).values
        let same: (Signature) -> Bool = { s in zip(s.values, reference).allSatisfy { abs($0 - $1) < 4 } }
        let mpv = try Players.mpv(world.path(name), width: 320, height: 240)
        #expect(!mpv.frames.isEmpty && mpv.frames.allSatisfy(same), "mpv showed \(mpv.frames.count) pictures of \(name): \(mpv.log.suffix(300))")
        guard inChromium else { return }
        let browser = try Players.chromium(world.path(name), times: [0.5, 1.5])
        #expect(abs(browser.duration - 2) < 0.1 && browser.frames.count == 2, "Chromium: \(browser.duration) s")
        #expect(browser.frames.allSatisfy(same), "Chromium shows \(browser.frames.first?.values.prefix(4) ?? []), ffmpeg \(reference.prefix(4))")
    }

    /// The pixels around (250, 100), where the tests put the pointer, that are not `colour`.
    static func pointerPixels(_ frame: ScreenFrames.Frame, on colour: Colour, x: Int = 250, y: Int = 100) -> Int {
        var count = 0
        for j in (y - 10)..<(y + 10) { for i in (x - 10)..<(x + 10) where !frame.shows(colour, at: i, j) { count += 1 } }
        return count
    }

    /// One window (`x11:window=ID`), with the pointer over it and `--cursor off`: the recording
    /// has the window's size and shows the window, with no pointer drawn (aStaticScreenThenAChange
    /// sees the pointer drawn with `--cursor on`).
    @Test func oneWindowWithoutThePointer() throws {
        let world = try ScreenWorld()
        try world.x.paint("red")
        let window = try world.x.launch("xmessage", ["-geometry", "100x60+20+20", "-bg", "yellow", "-fg", "yellow", "."])
        defer { window.kill() }
        let id = try world.x.run("xdotool", ["search", "--sync", "--onlyvisible", "--name", "^xmessage$"]).output
            .split(separator: "\n").first.map(String.init) ?? ""
        try #require(!id.isEmpty)
        try world.x.run("xdotool", ["mousemove", "--sync", "100", "65"])
        let r = try world.rec(["record", "--source", "x11:window=\(id)", "--cursor", "off", "--frames", "2", "-o", "window.mp4"])
        try #require(r.status == 0, "rec record: \(r.error)")
        let clip = try ScreenFrames(world.path("window.mp4"))
        #expect(clip.width == 100 && clip.height == 60, "\(clip.width)x\(clip.height)")
        let frame = try #require(clip.frames.first)
        #expect(frame.shows(.yellow, at: 90, 50))
        // The pointer's place in the window, (80, 45), below the message's frame and beside the button.
        #expect(Self.pointerPixels(frame, on: .yellow, x: 80, y: 45) == 0, "pointer pixels with --cursor off")
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
