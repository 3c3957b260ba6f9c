/// What `--source screen` or `--source x11…` names: the desktop's screen, or one X server's
/// screen, a region of it or one window. Parsed here (pure); Capture grabs it through
/// libavdevice's x11grab.
///
/// ```
/// screen                         whatever the desktop has (X11 now; Wayland's portal is not built yet)
/// x11                            the whole screen of $DISPLAY
/// x11::1                         the whole screen of display :1 (also host:0, :0.1)
/// x11:+100,200/1280x720          1280x720 at (100,200) of $DISPLAY
/// x11::1+0,0/640x480             640x480 at the top left of :1
/// x11:/640x480                   640x480 at the top left of $DISPLAY
/// x11:window=0x1a00007           one window of $DISPLAY (xwininfo or xdotool give the id)
/// x11::1/window=0x1a00007        one window of :1
/// ```
package enum ScreenSpec: Sendable, Equatable, CustomStringConvertible {
    /// `screen`: the desktop's own (chosen by `ScreenChoice` from the environment).
    case automatic
    /// `x11…`: an X server's screen.
    case x11(X11Target)

    package var description: String {
        switch self {
        case .automatic: "screen"
        case .x11(let target): target.description
        }
    }
}

/// An X server's screen, a region of it, or one of its windows.
package struct X11Target: Sendable, Equatable, CustomStringConvertible {
    /// `:1`, `:0.1`, `host:0`; nil is `$DISPLAY`.
    package var display: String?
    /// The part of the screen to record; nil is all of it.
    package var region: ScreenRegion?
    /// A window's id; nil is the root window (the screen).
    package var window: UInt32?

    package init(display: String? = nil, region: ScreenRegion? = nil, window: UInt32? = nil) {
        self.display = display
        self.region = region
        self.window = window
    }

    static let syntax = "write x11, x11:DISPLAY, x11:[DISPLAY]+X,Y/WIDTHxHEIGHT or x11:[DISPLAY/]window=ID, "
        + "e.g. x11::1, x11:+100,200/1280x720 or x11:window=0x1a00007"

    /// Parses what follows `x11:` (empty: the whole screen of `$DISPLAY`).
    package static func parse(_ text: String) throws(RecError) -> X11Target {
        let whole = "x11:" + text
        if let range = text.firstRange(of: "window=") {
            var display = String(text[..<range.lowerBound])
            if display.hasSuffix("/") { display.removeLast() }
            let id = String(text[range.upperBound...])
            guard let window = parseWindow(id) else {
                throw .usage("'\(id)' is not a window id in '\(whole)'; give the id xwininfo or xdotool print, "
                             + "e.g. x11:window=0x1a00007 or x11:window=27263015")
            }
            return X11Target(display: try displayName(display, in: whole), window: window)
        }
        var rest = Substring(text)
        var size: (width: Int, height: Int)?
        if let slash = rest.firstIndex(of: "/") {
            size = try SourceSpec.parseSize(String(rest[rest.index(after: slash)...]))
            rest = rest[..<slash]
        }
        var origin: (x: Int, y: Int)?
        if let plus = rest.firstIndex(of: "+") {
            let numbers = rest[rest.index(after: plus)...].split(separator: ",", omittingEmptySubsequences: false)
            guard numbers.count == 2, let x = Int(numbers[0]), let y = Int(numbers[1]), x >= 0, y >= 0, x <= 65535, y <= 65535 else {
                throw .usage("'\(rest[plus...])' is not a position in '\(whole)'; write +X,Y with whole numbers from 0, e.g. x11:+100,200/1280x720")
            }
            origin = (x, y)
            rest = rest[..<plus]
        }
        let display = try displayName(String(rest), in: whole)
        if origin != nil && size == nil {
            throw .usage("'\(whole)' gives a position but no size; add /WIDTHxHEIGHT, e.g. x11:+100,200/1280x720")
        }
        let region = size.map { ScreenRegion(x: origin?.x ?? 0, y: origin?.y ?? 0, width: $0.width, height: $0.height) }
        return X11Target(display: display, region: region)
    }

    /// `:N`, `:N.S` or `host:N[.S]`; nil when empty.
    static func displayName(_ text: String, in whole: String) throws(RecError) -> String? {
        guard !text.isEmpty else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let numbers = parts.last?.split(separator: ".", omittingEmptySubsequences: false) ?? []
        guard parts.count == 2, (1...2).contains(numbers.count), numbers.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }),
              !parts[0].contains("/") else {
            throw .usage("'\(text)' is not an X display in '\(whole)'; name one as :1, :0.1 or host:0 (\(syntax))")
        }
        return text
    }

    /// `0x1a00007` or `27263015`; nil when neither, or 0.
    static func parseWindow(_ text: String) -> UInt32? {
        let lower = text.lowercased()
        let value = lower.hasPrefix("0x") ? UInt32(lower.dropFirst(2), radix: 16) : UInt32(lower)
        return value == 0 ? nil : value
    }

    package var description: String {
        var text = "x11:" + (display ?? "")
        if let window { return text + (display == nil ? "" : "/") + "window=0x" + String(window, radix: 16) }
        if let region { text += "+\(region.x),\(region.y)/\(region.width)x\(region.height)" }
        return text == "x11:" ? "x11" : text
    }
}

/// A rectangle of a screen, in pixels from its top left corner.
package struct ScreenRegion: Sendable, Equatable {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether the region lies inside a screen of this size.
    package func fits(width screenWidth: Int, height screenHeight: Int) -> Bool {
        x + width <= screenWidth && y + height <= screenHeight
    }

    /// The region cut to a screen of this size (a screen that shrank while recording), with an
    /// even width and height as encoders want; the whole screen when none of it is left.
    package func fitted(width screenWidth: Int, height screenHeight: Int) -> ScreenRegion {
        let whole = ScreenRegion(x: 0, y: 0, width: screenWidth / 2 * 2, height: screenHeight / 2 * 2)
        guard x + 16 <= screenWidth, y + 16 <= screenHeight else { return whole }
        let w = min(width, screenWidth - x) / 2 * 2
        let h = min(height, screenHeight - y) / 2 * 2
        return ScreenRegion(x: x, y: y, width: w, height: h)
    }
}
