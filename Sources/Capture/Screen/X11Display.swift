import CXCB
import Glibc
import RecCore

/// One connection to an X server through libxcb: the one owner of its `xcb_connection_t`. It
/// asks what the server has (screens, RandR outputs, a window's or the screen's size) and
/// notices when the server goes away. One thread at a time.
final class X11Display {
    private let connection: OpaquePointer
    /// The name as given (`:1`, `host:0.1`).
    let name: String
    /// The screen the name chose (`:0.1` → 1).
    let screenNumber: Int

    /// A screen of the server: its root window and size in pixels.
    struct Screen: Equatable {
        var number: Int
        var root: UInt32
        var width: Int
        var height: Int
    }

    /// A RandR output (a monitor's connector) and where its picture is on the screen, if lit.
    struct Output: Equatable {
        var name: String
        var connected: Bool
        var region: ScreenRegion?
    }

    /// Connects to `name`. The corresponding C functions are `xcb_connect` and
    /// `xcb_connection_has_error`.
    init(name: String) throws(RecError) {
        var screen: Int32 = 0
        guard let connection = xcb_connect(name, &screen) else {
            throw Self.cannotConnect(name)
        }
        if xcb_connection_has_error(connection) != 0 {
            xcb_disconnect(connection)
            throw Self.cannotConnect(name)
        }
        self.connection = connection
        self.name = name
        self.screenNumber = Int(screen)
    }

    deinit { xcb_disconnect(connection) }

    private static func cannotConnect(_ name: String) -> RecError {
        .runtime("cannot connect to the X display \(name); is an X server running there, and may this user use it "
                 + "(XAUTHORITY, xhost)? See 'rec devices' for the screens rec can reach")
    }

    /// Whether the server is still there: false once the connection broke (the server ended).
    var isConnected: Bool { xcb_connection_has_error(connection) == 0 }

    /// Every screen of the server. The corresponding C functions are `xcb_get_setup` and
    /// `xcb_setup_roots_iterator`.
    var screens: [Screen] {
        var list: [Screen] = []
        var it = xcb_setup_roots_iterator(xcb_get_setup(connection))
        while it.rem > 0 {
            if let s = it.data?.pointee {
                list.append(Screen(number: list.count, root: s.root, width: Int(s.width_in_pixels), height: Int(s.height_in_pixels)))
            }
            xcb_screen_next(&it)
        }
        return list
    }

    /// The screen the name chose.
    var screen: Screen? { screens.first { $0.number == screenNumber } }

    /// The size of `window` (the chosen screen's root when nil) now; nil if the window is gone
    /// or the server is. The root's size follows RandR's size changes, unlike the setup's.
    /// The corresponding C functions are `xcb_get_geometry` and `xcb_get_geometry_reply`.
    func size(of window: UInt32? = nil) -> (width: Int, height: Int)? {
        guard let drawable = window ?? screen?.root else { return nil }
        let cookie = xcb_get_geometry(connection, drawable)
        guard let reply = xcb_get_geometry_reply(connection, cookie, nil) else { return nil }
        defer { free(reply) }
        return (Int(reply.pointee.width), Int(reply.pointee.height))
    }

    /// The RandR outputs of the chosen screen, in the server's order; empty without RandR.
    /// The corresponding C functions are `xcb_randr_get_screen_resources_current`,
    /// `xcb_randr_get_output_info` and `xcb_randr_get_crtc_info`.
    var outputs: [Output] {
        guard let root = screen?.root else { return [] }
        let cookie = xcb_randr_get_screen_resources_current(connection, root)
        guard let resources = xcb_randr_get_screen_resources_current_reply(connection, cookie, nil) else { return [] }
        defer { free(resources) }
        let count = Int(xcb_randr_get_screen_resources_current_outputs_length(resources))
        guard count > 0, let ids = xcb_randr_get_screen_resources_current_outputs(resources) else { return [] }
        let stamp = resources.pointee.config_timestamp
        var list: [Output] = []
        for i in 0..<count {
            let infoCookie = xcb_randr_get_output_info(connection, ids[i], stamp)
            guard let info = xcb_randr_get_output_info_reply(connection, infoCookie, nil) else { continue }
            defer { free(info) }
            let length = Int(xcb_randr_get_output_info_name_length(info))
            let name = xcb_randr_get_output_info_name(info).map {
                String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
            } ?? "output \(i)"
            var output = Output(name: name, connected: info.pointee.connection == CXCB_RANDR_CONNECTED, region: nil)
            let crtc = info.pointee.crtc
            if crtc != 0, let c = xcb_randr_get_crtc_info_reply(connection, xcb_randr_get_crtc_info(connection, crtc, stamp), nil) {
                if c.pointee.width > 0, c.pointee.height > 0 {
                    output.region = ScreenRegion(x: Int(c.pointee.x), y: Int(c.pointee.y), width: Int(c.pointee.width), height: Int(c.pointee.height))
                }
                free(c)
            }
            list.append(output)
        }
        return list
    }
}
