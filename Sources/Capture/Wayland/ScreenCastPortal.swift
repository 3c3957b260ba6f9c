import CSystemd
import Foundation
import Glibc
import RecCore

/// The ScreenCast portal (org.freedesktop.portal.ScreenCast) over sd-bus: CreateSession,
/// SelectSources (one monitor, the cursor embedded where the portal offers it, persist_mode 2 with
/// the restore token kept), Start, OpenPipeWireRemote. Each request's answer is its Request
/// object's `Response` signal, waited for until a deadline.
///
/// The portal session lives as long as this object's bus connection (the portal closes a
/// session whose caller left the bus, so no `Session.Close` is sent from `deinit`): keep it until
/// the recording ends (`WaylandScreenSource` holds it); a session closed by the user ends the
/// PipeWire stream.
package final class ScreenCastPortal {
    /// What Start granted: the PipeWire connection (owned by the caller) and the screen's node.
    package struct Grant: Sendable {
        package var descriptor: Int32
        package var nodeID: UInt32
        package var restoreToken: String?
    }

    private let bus: PortalBus
    private var requests = 0
    private var session: String?
    private let deadlineSeconds: Double

    /// - Parameter deadlineSeconds: how long each request may take (the user picks a screen in
    ///   Start's dialog the first time).
    package init(deadlineSeconds: Double = 120) throws(RecError) {
        bus = try PortalBus()
        self.deadlineSeconds = deadlineSeconds
    }

    /// Runs the portal's dialogue up to a PipeWire connection for one monitor.
    /// - Parameter cursor: the pointer drawn into the pictures (`cursor_mode` 2, embedded), or
    ///   left out (1, hidden), where the portal offers that mode (`AvailableCursorModes`).
    /// - Parameter window: one window (`types` 2) instead of one monitor (1).
    package func start(restoreToken: String?, window: Bool = false, cursor: Bool = true) throws(RecError) -> Grant {
        try request("CreateSession", options: [
            ("session_handle_token", "s", { m throws(RecError) in try m.append("s", "rec\(getpid())") }),
        ]) { key, m throws(RecError) -> Bool in
            guard key == "session_handle" else { return false }
            try m.enter("v", "s")
            self.session = try m.readString()
            try m.exit()
            return true
        }
        guard let session else { throw .runtime("the screen-cast portal made no session") }

        var cursorModes: UInt32 = 0
        var error = csystemd_bus_error_null()
        _ = sd_bus_get_property_trivial(bus.bus, PortalBus.destination, PortalBus.path, "org.freedesktop.portal.ScreenCast",
                                        "AvailableCursorModes", &error, CChar(UInt8(ascii: "u")), &cursorModes)
        sd_bus_error_free(&error)
        var options: [(key: String, signature: String, value: (PortalMessage) throws(RecError) -> Void)] = [
            ("types", "u", { m throws(RecError) in try m.append(UInt32(window ? 2 : 1)) }),   // window or monitor
            ("multiple", "b", { m throws(RecError) in try m.append(false) }),
            ("persist_mode", "u", { m throws(RecError) in try m.append(UInt32(2)) }),   // until revoked
        ]
        let mode: UInt32 = cursor ? 2 : 1   // embedded, hidden
        if cursorModes & mode != 0 { options.append(("cursor_mode", "u", { m throws(RecError) in try m.append(mode) })) }
        if let restoreToken { options.append(("restore_token", "s", { m throws(RecError) in try m.append("s", restoreToken) })) }
        try request("SelectSources", before: { m throws(RecError) in try m.append("o", session) }, options: options) { _, _ in false }

        var node: UInt32?
        var token: String?
        try request("Start", before: { m throws(RecError) in
            try m.append("o", session)
            try m.append("s", "")
        }, options: []) { key, m throws(RecError) -> Bool in
            switch key {
            case "streams":
                try m.enter("v", "a(ua{sv})")
                try m.enter("a", "(ua{sv})")
                if sd_bus_message_enter_container(m.message, CChar(UInt8(ascii: "r")), "ua{sv}") > 0 {
                    var id: UInt32 = 0
                    try m.read("u", &id)
                    node = id
                    try m.skip("a{sv}")
                    try m.exit()
                }
                while sd_bus_message_skip(m.message, "(ua{sv})") > 0 {}
                try m.exit()
                try m.exit()
                return true
            case "restore_token":
                try m.enter("v", "s")
                token = try m.readString()
                try m.exit()
                return true
            default: return false
            }
        }
        guard let node else { throw .runtime("the screen-cast portal started no stream; pick a screen in its dialog") }

        let reply = try bus.call("OpenPipeWireRemote") { m throws(RecError) in
            try m.append("o", session)
            try m.options([])
        }
        var fd: Int32 = -1
        try reply.read("h", &fd)
        // The descriptor belongs to `reply` (closed when it is unreferenced): copied while it lives.
        let own = withExtendedLifetime(reply) { fcntl(fd, F_DUPFD_CLOEXEC, 3) }
        guard own >= 0 else { throw .runtime("cannot keep the portal's PipeWire connection", cause: String(cString: strerror(errno))) }
        return Grant(descriptor: own, nodeID: node, restoreToken: token)
    }

    /// One request: `before` appends the arguments ahead of the options, which get a handle token;
    /// the call is made with a listener on its Request path; `results` reads the answer's entries.
    @discardableResult
    private func request(_ method: String, before: (PortalMessage) throws(RecError) -> Void = { _ in },
                         options: [(key: String, signature: String, value: (PortalMessage) throws(RecError) -> Void)] = [],
                         results: (String, PortalMessage) throws(RecError) -> Bool) throws(RecError) -> UInt32 {
        requests += 1
        let token = "rec\(getpid())_\(requests)"
        let path = "/org/freedesktop/portal/desktop/request/\(bus.sender)/\(token)"
        try bus.listen(request: path)
        _ = try bus.call(method) { m throws(RecError) in
            try before(m)
            try m.options(options + [("handle_token", "s", { m throws(RecError) in try m.append("s", token) })])
        }
        let deadline = PipeWireStream.monotonicNow() + UInt64(deadlineSeconds * 1e9)
        let (code, answer) = try bus.response(to: path, deadline: deadline)
        switch code {
        case 0: break
        case 1: throw .runtime("the screen cast was cancelled in the portal's dialog; run again and pick a screen")
        default:
            throw .runtime("the screen-cast portal refused \(method) (response \(code)); its backend could not capture this desktop "
                           + "(xdg-desktop-portal-wlr needs DMA-BUF, that is a GPU: see docs/WAYLAND.md); journalctl --user shows why")
        }
        try answer.readOptions { key throws(RecError) in try results(key, answer) }
        return code
    }
}
