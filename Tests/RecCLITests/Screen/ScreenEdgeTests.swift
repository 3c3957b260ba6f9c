import Foundation
import Glibc
import Testing
import TestServers
import TestPool

/// Issue 22, X11: what goes wrong around a screen recording — a wrong display, window or region,
/// options that do not apply, a Wayland desktop, the X server ending mid-recording — and what
/// `rec devices` says of the screens.
@Suite(.blocking, .serialized) struct ScreenEdgeTests {
    @Test func mistakesSayWhatToTry() throws {
        let world = try ScreenWorld()
        let cases: [([String], Int32, String)] = [
            (["--source", "x11::97"], 1, "cannot connect to the X display :97"),
            (["--source", "x11:window=0x7654321"], 64, "there is no window 0x7654321 on the X display \(world.x.display)"),
            (["--source", "x11:+300,0/320x240"], 64, "does not fit the screen of \(world.x.display), which is 320x240"),
            (["--source", "x11", "--size", "640x480"], 64, "--size does not apply to a screen"),
            (["--source", "test", "--cursor", "off"], 64, "--cursor applies only to screen sources"),
            (["--source", "x11:+1,2"], 64, "gives a position but no size"),
        ]
        for (arguments, status, message) in cases {
            let r = try world.rec(["record"] + arguments + ["--frames", "1", "-o", "x.mp4"])
            #expect(r.status == status && r.error.contains(message), "\(arguments): \(r.status) \(r.error)")
            #expect(!r.error.contains("Fatal error") && !FileManager.default.fileExists(atPath: world.path("x.mp4")), "\(arguments)")
        }
    }

    @Test func aWaylandDesktopIsToldItIsNotBuiltYet() throws {
        var env = ProcessInfo.processInfo.environment
        env["WAYLAND_DISPLAY"] = "wayland-0"
        env["XDG_SESSION_TYPE"] = "wayland"
        env.removeValue(forKey: "DISPLAY")
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let r = try RecBinary.run(["record", "--source", "screen", "--frames", "1", "-o", "x.mp4"], in: folder, environment: env)
        #expect(r.status == 1)
        #expect(r.error.contains("cannot record a Wayland screen yet") && r.error.contains("X11 (Xorg) session"), "\(r.error)")
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        env.removeValue(forKey: "XDG_SESSION_TYPE")
        let none = try RecBinary.run(["record", "--source", "screen", "--frames", "1", "-o", "x.mp4"], in: folder, environment: env)
        #expect(none.status == 1 && none.error.contains("neither WAYLAND_DISPLAY nor DISPLAY is set"), "\(none.error)")
    }

    /// `--source screen` on an X11 desktop records its display and says so.
    @Test func screenPicksTheX11Display() throws {
        let world = try ScreenWorld()
        try world.x.paint("blue")
        let r = try world.rec(["record", "--source", "screen", "--frames", "2", "-o", "screen.mp4"])
        #expect(r.status == 0, "\(r.error)")
        #expect(r.error.contains("--source screen records the X11 display \(world.x.display)"), "\(r.error)")
        #expect(try ScreenFrames(world.path("screen.mp4")).frames.first?.shows(.blue, at: 10, 10) == true)
    }

    @Test func devicesListTheScreenAndItsOutput() throws {
        let world = try ScreenWorld()
        let text = try world.rec(["devices"])
        #expect(text.status == 0)
        let display = world.x.display
        #expect(text.output.contains("screens (--source):\n  x11:\(display)  X11 screen 0 of \(display), 320x240"), "\(text.output)")
        #expect(text.output.contains("    x11:\(display)+0,0/320x240  output "), "\(text.output)")
        let json = try world.rec(["devices", "--json"])
        let listing = NetworkClip.object(json.output)
        let screens = try #require(listing["screens"] as? [[String: Any]], "\(json.output)")
        #expect(screens.first?["source"] as? String == "x11:\(display)")
        #expect(screens.first?["width"] as? Int == 320)
        #expect((screens.first?["outputs"] as? [[String: Any]])?.first?["source"] as? String == "x11:\(display)+0,0/320x240")
    }

    /// The X server ending mid-recording: rec stops at once with a message saying so (exit 1),
    /// and the file holds what was recorded, readable to the end.
    @Test func theDisplayGoingAwayEndsTheRecordingCleanly() throws {
        let world = try ScreenWorld()
        try world.x.paint("red")
        let start = try world.rec(["start", "--source", "x11", "-o", "gone.mp4"])
        try #require(start.status == 0, "rec start: \(start.error)")
        try world.waitUntil(1.5)
        world.x.kill()
        let failed = try world.rec(["status", "--json", "--wait-error", "--timeout", "30s"])
        let status = NetworkClip.object(failed.output)
        let error = status["last_error"] as? String ?? ""
        #expect(error.contains("the X display \(world.x.display) went away"), "\(failed.output)")
        _ = try world.rec(["stop"])
        let recording = try ScreenFrames(world.path("gone.mp4"))
        #expect(recording.frames.count >= 2 && recording.frames.allSatisfy { $0.shows(.red, at: 10, 10) })
        try NetworkClip.expectDecodes(world.path("gone.mp4"))
    }
}

/// A screen that changes size while it is recorded (Xvnc, which RandR can resize): the session
/// keeps its first size, pictures of the new size are scaled to it, and what the screen shows
/// goes on being recorded.
@Suite(.blocking, .serialized) struct ScreenResizeTests {
    @Test func aResizedScreenIsScaledToTheSessionsSize() throws {
        let world = try ScreenWorld(width: 1024, height: 768, kind: .xvnc)
        try world.x.paint("blue")
        let start = try world.rec(["start", "--source", "x11", "--cursor", "off", "-o", "resize.mp4"])
        try #require(start.status == 0, "rec start: \(start.error)")
        try world.waitUntil(1.2)
        var marks: [Double] = []
        for (mode, colour) in [("800x600", "red"), ("1280x720", "lime")] {
            let r = try world.x.run("xrandr", ["--output", "VNC-0", "--mode", mode])
            try #require(r.status == 0, "xrandr --mode \(mode)")
            try world.x.paint(colour)
            let frames = (NetworkClip.object(try world.rec(["status", "--json"]).output)["frames"] as? Int) ?? 0
            try #require(try world.rec(["status", "--wait-frames", "\(frames + 1)", "--timeout", "30s"]).status == 0)
            marks.append(try world.ringEnd())
        }
        try world.waitUntil((marks.last ?? 0) + 1.2)
        let status = NetworkClip.object(try world.rec(["status", "--json"]).output)
        #expect(status["state"] as? String == "recording", "\(status)")
        #expect(try world.rec(["stop"]).status == 0)
        let recording = try ScreenFrames(world.path("resize.mp4"))
        #expect(recording.width == 1024 && recording.height == 768)
        let last = try #require(recording.frames.last)
        #expect(last.shows(.lime, at: 1000, 740) && last.shows(.lime, at: 10, 10), "\(last.rgb(1000, 740))")
        // The 800x600 screen's picture fills the whole frame, corner to corner, before the next change.
        let red = recording.frames.first { $0.shows(.red, at: 1000, 740) && $0.shows(.red, at: 10, 10) }
        let lime = recording.frames.first { $0.shows(.lime, at: 1000, 740) }
        #expect(red.map { $0.time < (lime?.time ?? 0) } == true, "red at \(red?.time ?? -1), lime at \(lime?.time ?? -1)")
        #expect(recording.frames.first?.shows(.blue, at: 1000, 740) == true)
    }
}
