import Foundation
import RecCore

/// One screen `rec devices` lists: an X server's screen and the RandR outputs lit on it, each
/// with the `--source` value that records it.
package struct ScreenInfo: Sendable, Equatable, Encodable {
    package struct Output: Sendable, Equatable, Encodable {
        package var name: String
        package var connected: Bool
        package var x: Int?, y: Int?, width: Int?, height: Int?
        /// `--source` for this output's part of the screen; nil when it shows nothing.
        package var source: String?
    }

    package var display: String
    package var screen: Int
    package var width: Int
    package var height: Int
    package var source: String
    package var outputs: [Output]
}

package struct ScreenListing: Sendable, Equatable {
    package var screens: [ScreenInfo]
    package var notes: [String]
}

/// The screens `--source` can record: `$DISPLAY`'s X server (each screen, each output), or a
/// note on a Wayland session or with no desktop at all.
package enum ScreenDevices {
    package static func list(environment: [String: String] = ProcessInfo.processInfo.environment) -> ScreenListing {
        var notes: [String] = []
        if !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty || environment["XDG_SESSION_TYPE"] == "wayland" {
            notes.append("Wayland session: the ScreenCast portal would ask which screen when a recording starts, "
                         + "but rec cannot record Wayland yet (see docs/SCREEN.md)")
        }
        guard let name = environment["DISPLAY"], !name.isEmpty else {
            notes.append("no X display (DISPLAY is not set); name one with --source x11::N")
            return ScreenListing(screens: [], notes: notes)
        }
        guard let display = try? X11Display(name: name) else {
            notes.append("cannot connect to the X display \(name)")
            return ScreenListing(screens: [], notes: notes)
        }
        let base = name.split(separator: ".").first.map(String.init) ?? name
        let screens = display.screens.map { screen in
            let spelled = screen.number == 0 && base == name ? name : "\(base).\(screen.number)"
            let outputs = screen.number == display.screenNumber ? display.outputs.map { o in
                ScreenInfo.Output(name: o.name, connected: o.connected, x: o.region?.x, y: o.region?.y,
                                  width: o.region?.width, height: o.region?.height,
                                  source: o.region.map { "x11:\(spelled)+\($0.x),\($0.y)/\($0.width)x\($0.height)" })
            } : []
            return ScreenInfo(display: spelled, screen: screen.number, width: screen.width, height: screen.height,
                              source: "x11:\(spelled)", outputs: outputs)
        }
        return ScreenListing(screens: screens, notes: notes)
    }
}

/// `rec devices` output for screens: human text, or JSON for scripts.
package enum ScreenListFormatter {
    /// A heading, a line per screen and per output lit on it, then the notes.
    package static func text(_ listing: ScreenListing) -> String {
        var lines = ["screens (--source):"]
        for s in listing.screens {
            lines.append("  \(s.source)  X11 screen \(s.screen) of \(s.display), \(s.width)x\(s.height)")
            for o in s.outputs {
                if let source = o.source, let w = o.width, let h = o.height {
                    lines.append("    \(source)  output \(o.name), \(w)x\(h)")
                } else {
                    lines.append("    output \(o.name): \(o.connected ? "connected, showing nothing" : "disconnected")")
                }
            }
        }
        if listing.screens.isEmpty && listing.notes.isEmpty { lines.append("  none found") }
        lines += listing.notes.map { "  " + $0 }
        return lines.joined(separator: "\n") + "\n"
    }

    package static func json(_ screens: [ScreenInfo]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(screens) else { return "[]" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
