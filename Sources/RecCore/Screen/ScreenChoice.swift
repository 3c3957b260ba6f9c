/// What `--source screen` records on this desktop, decided from its environment alone: an X11
/// session's `$DISPLAY`, or, on Wayland, the reason it cannot yet (the ScreenCast portal and
/// PipeWire source is a later piece of work; `WaylandCapture` is its seam).
package enum ScreenChoice: Sendable, Equatable {
    /// Record this X server (from `$DISPLAY`).
    case x11(X11Target)
    /// A Wayland session: the portal's capture, which is not built yet.
    case wayland(xwayland: String?)

    /// The desktop's kind from `WAYLAND_DISPLAY`, `XDG_SESSION_TYPE` and `DISPLAY`. Throws when
    /// neither a Wayland nor an X11 desktop is in the environment.
    package static func choose(_ spec: ScreenSpec, environment: [String: String]) throws(RecError) -> ScreenChoice {
        let display = environment["DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
        switch spec {
        case .x11(var target):
            if target.display == nil {
                guard let display else {
                    throw .usage("no X display to record: DISPLAY is not set; name one, e.g. --source x11::0, or run rec inside the X session")
                }
                target.display = display
            }
            return .x11(target)
        case .automatic:
            let wayland = !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty || environment["XDG_SESSION_TYPE"] == "wayland"
            if wayland { return .wayland(xwayland: display) }
            guard let display else {
                throw .runtime("no desktop to record: neither WAYLAND_DISPLAY nor DISPLAY is set; run rec inside the desktop session, "
                               + "or name an X server with --source x11::0")
            }
            return .x11(X11Target(display: display))
        }
    }

    /// Why a Wayland desktop is not recorded yet, and what to try instead.
    package static func waylandNotBuilt(xwayland: String?) -> RecError {
        var message = "this is a Wayland session, and rec cannot record a Wayland screen yet (the ScreenCast portal and PipeWire capture is not built); "
        if let xwayland {
            message += "--source x11:\(xwayland) records XWayland, which shows only the windows of X11 programs; "
        }
        message += "to record the whole desktop, log in to an X11 (Xorg) session and use --source screen"
        return .runtime(message)
    }
}
