import CSystemd
import Glibc
import RecCore

/// The user's session bus through sd-bus, for the ScreenCast portal: method calls built from
/// sd-bus's non-variadic calls (Swift imports no variadic C), and the portal's Request objects'
/// `Response` signals waited for with `sd_bus_wait` until a deadline, never by polling.
final class PortalBus {
    let bus: OpaquePointer
    /// This connection's unique name as the portal writes it in request paths (":1.42" → "1_42").
    let sender: String

    init() throws(RecError) {
        var bus: OpaquePointer?
        let r = sd_bus_open_user(&bus)
        guard r >= 0, let bus else {
            throw .runtime("cannot reach the desktop session bus for the screen-cast portal; is DBUS_SESSION_BUS_ADDRESS set?",
                           cause: String(cString: strerror(-r)))
        }
        self.bus = bus
        var unique: UnsafePointer<CChar>?
        _ = sd_bus_get_unique_name(bus, &unique)
        sender = String(unique.map { String(cString: $0) }?.dropFirst() ?? "").replacingOccurrences(of: ".", with: "_")
    }

    deinit { sd_bus_flush_close_unref(bus) }

    static let destination = "org.freedesktop.portal.Desktop"
    static let path = "/org/freedesktop/portal/desktop"

    /// A method call on the portal's ScreenCast interface; `build` appends the arguments.
    func call(_ method: String, timeoutSeconds: Double = 30, _ build: (PortalMessage) throws(RecError) -> Void) throws(RecError) -> PortalMessage {
        var message: OpaquePointer?
        try check(sd_bus_message_new_method_call(bus, &message, Self.destination, Self.path,
                                                 "org.freedesktop.portal.ScreenCast", method), "build \(method)")
        guard let message else { throw .runtime("cannot build the portal's \(method) call") }
        let call = PortalMessage(taking: message)
        try build(call)
        var error = csystemd_bus_error_null()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        // `call` owns the message: it must outlive the call that sends it.
        let r = withExtendedLifetime(call) { sd_bus_call(bus, message, UInt64(timeoutSeconds * 1e6), &error, &reply) }
        guard r >= 0, let reply else {
            let why = error.message.map { String(cString: $0) } ?? String(cString: strerror(-r))
            throw .runtime("the screen-cast portal refused \(method): \(why); is xdg-desktop-portal running with a backend "
                           + "for this desktop (xdg-desktop-portal-wlr, -gnome or -kde)?")
        }
        return PortalMessage(taking: reply)
    }

    /// Listens for the `Response` of the request at `path`; call before the method that makes it.
    func listen(request path: String) throws(RecError) {
        let rule = "type='signal',interface='org.freedesktop.portal.Request',member='Response',path='\(path)'"
        try check(sd_bus_add_match(bus, nil, rule, nil, nil), "listen for the portal's answer")
    }

    /// Waits for the `Response` signal of the request at `path` until `deadline` (CLOCK_MONOTONIC
    /// ns); returns its message, positioned after the response code, with the code.
    func response(to path: String, deadline: UInt64) throws(RecError) -> (code: UInt32, message: PortalMessage) {
        while true {
            var got: OpaquePointer?
            let r = sd_bus_process(bus, &got)
            guard r >= 0 else { throw .runtime("the session bus failed while waiting for the portal", cause: String(cString: strerror(-r))) }
            if let got {
                let message = PortalMessage(taking: got)
                // `message` owns `got`: it must outlive the questions asked of it.
                let answers = withExtendedLifetime(message) {
                    sd_bus_message_is_signal(got, "org.freedesktop.portal.Request", "Response") > 0
                        && sd_bus_message_get_path(got).map { String(cString: $0) == path } == true
                }
                if answers {
                    var code: UInt32 = 0
                    try message.read("u", &code)
                    return (code, message)
                }
                continue
            }
            if r > 0 { continue }
            let now = PipeWireStream.monotonicNow()
            guard now < deadline else { throw .runtime("the screen-cast portal did not answer within its time; is a chooser dialog waiting?") }
            _ = sd_bus_wait(bus, (deadline - now) / 1000)
        }
    }

    func check(_ r: Int32, _ what: String) throws(RecError) {
        guard r >= 0 else { throw .runtime("cannot \(what) on the session bus", cause: String(cString: strerror(-r))) }
    }
}

/// One sd-bus message, owned (unreferenced on deinit), with the few appends and reads the portal needs.
final class PortalMessage {
    let message: OpaquePointer
    init(taking message: OpaquePointer) { self.message = message }
    deinit { sd_bus_message_unref(message) }

    private func check(_ r: Int32, _ what: String) throws(RecError) {
        guard r >= 0 else { throw .runtime("the screen-cast portal's message could not be \(what)", cause: String(cString: strerror(-r))) }
    }
    private static func type(_ t: String) -> CChar { CChar(UInt8(ascii: t.unicodeScalars.first ?? "s")) }

    func append(_ type: String, _ value: String) throws(RecError) {
        try check(value.withCString { sd_bus_message_append_basic(message, Self.type(type), $0) }, "built")
    }
    func append(_ value: UInt32) throws(RecError) {
        var v = value
        try check(sd_bus_message_append_basic(message, Self.type("u"), &v), "built")
    }
    func append(_ value: Bool) throws(RecError) {
        var v: Int32 = value ? 1 : 0
        try check(sd_bus_message_append_basic(message, Self.type("b"), &v), "built")
    }
    func open(_ type: String, _ contents: String) throws(RecError) {
        try check(sd_bus_message_open_container(message, Self.type(type), contents), "built")
    }
    func close() throws(RecError) { try check(sd_bus_message_close_container(message), "built") }

    /// An `a{sv}` of options: each entry's value appended by its closure inside a variant of `signature`.
    func options(_ entries: [(key: String, signature: String, value: (PortalMessage) throws(RecError) -> Void)]) throws(RecError) {
        try open("a", "{sv}")
        for entry in entries {
            try open("e", "sv")
            try append("s", entry.key)
            try open("v", entry.signature)
            try entry.value(self)
            try close()
            try close()
        }
        try close()
    }

    func read(_ type: String, _ value: UnsafeMutableRawPointer) throws(RecError) {
        try check(sd_bus_message_read_basic(message, Self.type(type), value), "read")
    }
    func readString(_ type: String = "s") throws(RecError) -> String {
        var s: UnsafePointer<CChar>?
        try read(type, &s)
        return s.map { String(cString: $0) } ?? ""
    }

    /// Reads an `a{sv}` and hands each key to `entry`, positioned at its variant; `entry` returns
    /// whether it read the variant (else it is skipped).
    func readOptions(_ entry: (String) throws(RecError) -> Bool) throws(RecError) {
        try check(sd_bus_message_enter_container(message, Self.type("a"), "{sv}"), "read")
        while sd_bus_message_enter_container(message, Self.type("e"), "sv") > 0 {
            let key = try readString()
            if try !entry(key) { try check(sd_bus_message_skip(message, "v"), "read") }
            try check(sd_bus_message_exit_container(message), "read")
        }
        try check(sd_bus_message_exit_container(message), "read")
    }

    func enter(_ type: String, _ contents: String) throws(RecError) {
        try check(sd_bus_message_enter_container(message, Self.type(type), contents), "read")
    }
    func exit() throws(RecError) { try check(sd_bus_message_exit_container(message), "read") }
    func skip(_ signature: String) throws(RecError) { try check(sd_bus_message_skip(message, signature), "read") }
}
