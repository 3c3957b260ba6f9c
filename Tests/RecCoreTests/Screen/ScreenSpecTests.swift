import RecCore
import Testing

@Suite("Screen sources: --source screen and x11… parsed, and the desktop chosen")
struct ScreenSpecTests {
    @Test(arguments: [
        ("screen", ScreenSpec.automatic),
        ("x11", .x11(X11Target())),
        ("x11:", .x11(X11Target())),
        ("x11::1", .x11(X11Target(display: ":1"))),
        ("x11::0.1", .x11(X11Target(display: ":0.1"))),
        ("x11:box:0", .x11(X11Target(display: "box:0"))),
        ("x11:+100,200/1280x720", .x11(X11Target(region: ScreenRegion(x: 100, y: 200, width: 1280, height: 720)))),
        ("x11::1+0,0/640x480", .x11(X11Target(display: ":1", region: ScreenRegion(x: 0, y: 0, width: 640, height: 480)))),
        ("x11:/640x480", .x11(X11Target(region: ScreenRegion(x: 0, y: 0, width: 640, height: 480)))),
        ("x11:window=0x1a00007", .x11(X11Target(window: 0x1a00007))),
        ("x11:window=27263015", .x11(X11Target(window: 27_263_015))),
        ("x11::1/window=0x1A00007", .x11(X11Target(display: ":1", window: 0x1a00007))),
    ])
    func parses(text: String, expected: ScreenSpec) throws {
        #expect(try SourceSpec.parse(text) == .screen(expected))
        #expect(try SourceSpec.parse(text).isScreen)
    }

    /// What a source prints is what parses back to it.
    @Test(arguments: ["screen", "x11", "x11::1", "x11:+100,200/1280x720", "x11::1+0,0/640x480", "x11:window=0x1a00007",
                      "x11::1/window=0x1a00007"])
    func descriptionRoundTrips(text: String) throws {
        let spec = try SourceSpec.parse(text)
        #expect(spec.description == text)
        #expect(try SourceSpec.parse(spec.description) == spec)
    }

    @Test(arguments: [
        ("x11:1", "'1' is not an X display in 'x11:1'"),
        ("x11::a", "':a' is not an X display in 'x11::a'"),
        ("x11:+100/640x480", "'+100' is not a position in 'x11:+100/640x480'"),
        ("x11:+-1,0/640x480", "'+-1,0' is not a position"),
        ("x11:+10,10", "'x11:+10,10' gives a position but no size; add /WIDTHxHEIGHT"),
        ("x11:/641x480", "size 641x480 is out of range"),
        ("x11:/640", "'640' is not a size"),
        ("x11:window=0", "'0' is not a window id in 'x11:window=0'"),
        ("x11:window=zz", "'zz' is not a window id"),
        ("screen:0", "'screen:0' is not a screen source"),
        ("wayland:0", "'wayland:0' is not a screen source"),
    ])
    func mistakesSayWhatToWrite(text: String, message: String) {
        do {
            _ = try SourceSpec.parse(text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.code == .usage)
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test func anX11SessionRecordsItsDisplay() throws {
        #expect(try ScreenChoice.choose(.automatic, environment: ["DISPLAY": ":0"]) == .x11(X11Target(display: ":0")))
        #expect(try ScreenChoice.choose(.automatic, environment: ["DISPLAY": ":0", "XDG_SESSION_TYPE": "x11"]) == .x11(X11Target(display: ":0")))
        // x11 without a display takes $DISPLAY; a named one is kept.
        #expect(try ScreenChoice.choose(.x11(X11Target()), environment: ["DISPLAY": ":3"]) == .x11(X11Target(display: ":3")))
        #expect(try ScreenChoice.choose(.x11(X11Target(display: ":5")), environment: [:]) == .x11(X11Target(display: ":5")))
    }

    @Test func aWaylandSessionIsSaidNotBuiltWithWhatToTry() throws {
        #expect(try ScreenChoice.choose(.automatic, environment: ["WAYLAND_DISPLAY": "wayland-0"]) == .wayland(xwayland: nil))
        #expect(try ScreenChoice.choose(.automatic, environment: ["XDG_SESSION_TYPE": "wayland", "DISPLAY": ":0"]) == .wayland(xwayland: ":0"))
        let alone = ScreenChoice.waylandNotBuilt(xwayland: nil)
        #expect(alone.code == .runtime)
        #expect(alone.message.contains("cannot record a Wayland screen yet"))
        #expect(alone.message.contains("log in to an X11 (Xorg) session"))
        #expect(!alone.message.contains("XWayland"))
        #expect(ScreenChoice.waylandNotBuilt(xwayland: ":0").message.contains("--source x11::0 records XWayland"))
    }

    @Test func noDesktopAtAllIsSaid() {
        #expect(throws: RecError.self) { try ScreenChoice.choose(.automatic, environment: [:]) }
        do {
            _ = try ScreenChoice.choose(.x11(X11Target()), environment: ["DISPLAY": ""])
            Issue.record("no display chosen")
        } catch {
            #expect(error.code == .usage)
            #expect(error.message.contains("DISPLAY is not set"))
        }
    }

    @Test func aRegionIsCutToAScreenThatShrank() {
        let region = ScreenRegion(x: 100, y: 100, width: 1280, height: 720)
        #expect(region.fits(width: 1920, height: 1080))
        #expect(!region.fits(width: 1024, height: 768))
        #expect(region.fitted(width: 1920, height: 1080) == region)
        #expect(region.fitted(width: 1024, height: 768) == ScreenRegion(x: 100, y: 100, width: 924, height: 668))
        #expect(region.fitted(width: 1023, height: 767) == ScreenRegion(x: 100, y: 100, width: 922, height: 666))
        // Nothing of it left: the whole (even) screen.
        #expect(ScreenRegion(x: 800, y: 0, width: 640, height: 480).fitted(width: 800, height: 601)
                == ScreenRegion(x: 0, y: 0, width: 800, height: 600))
    }
}
