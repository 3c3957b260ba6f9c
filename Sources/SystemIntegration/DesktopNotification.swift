import CSystemd
import Foundation
import RecCore

/// A desktop notification through the freedesktop notification service
/// (`org.freedesktop.Notifications.Notify`) on the user's session bus, sent with libsystemd's
/// sd-bus, the same library that reports service readiness.
package enum DesktopNotification {
    /// Shows `summary` and `body`; throws when there is no session bus or no notification service.
    package static func send(summary: String, body: String) throws(RecError) {
        let bus = try SessionBus()
        try bus.notify(summary: summary, body: body)
    }
}

/// The one owner of an `sd_bus` connection to the session bus.
private final class SessionBus {
    private let bus: OpaquePointer

    /// The corresponding C function is `sd_bus_open_user`.
    init() throws(RecError) {
        var bus: OpaquePointer?
        let r = sd_bus_open_user(&bus)
        guard r >= 0, let bus else {
            throw .runtime("cannot reach the desktop session bus for a notification; is DBUS_SESSION_BUS_ADDRESS set?",
                           cause: String(cString: strerror(-r)))
        }
        self.bus = bus
    }

    deinit { sd_bus_flush_close_unref(bus) }

    /// Calls `Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout)`,
    /// signature `susssasa{sv}i`, building the message without C varargs.
    func notify(summary: String, body: String) throws(RecError) {
        var message: OpaquePointer?
        try check(sd_bus_message_new_method_call(bus, &message, "org.freedesktop.Notifications",
                                                 "/org/freedesktop/Notifications", "org.freedesktop.Notifications", "Notify"),
                  "build the notification")
        guard let message else { throw .runtime("cannot build the desktop notification") }
        defer { sd_bus_message_unref(message) }
        func string(_ s: String) throws(RecError) {
            try check(s.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }, "add a string")
        }
        var replaces: UInt32 = 0
        var timeout: Int32 = -1
        try string("rec")
        try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "u")), &replaces), "add the id")
        try string("video-x-generic")
        try string(summary)
        try string(body)
        try check(sd_bus_message_open_container(message, CChar(UInt8(ascii: "a")), "s"), "add actions")
        try check(sd_bus_message_close_container(message), "add actions")
        try check(sd_bus_message_open_container(message, CChar(UInt8(ascii: "a")), "{sv}"), "add hints")
        try check(sd_bus_message_close_container(message), "add hints")
        try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "i")), &timeout), "add the timeout")
        var error = csystemd_bus_error_null()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let r = sd_bus_call(bus, message, 5_000_000, &error, &reply)
        if let reply { sd_bus_message_unref(reply) }
        guard r >= 0 else {
            let why = error.message.map { String(cString: $0) } ?? String(cString: strerror(-r))
            throw .runtime("the desktop notification service did not take the notification; is a notification daemon running?",
                           cause: why)
        }
    }

    private func check(_ r: Int32, _ what: String) throws(RecError) {
        guard r >= 0 else { throw .runtime("cannot \(what) for the desktop notification", cause: String(cString: strerror(-r))) }
    }
}
