import CSystemd

/// Tells the service manager how a session is doing, through `sd_notify` (a no-op unless
/// systemd started the process with `NOTIFY_SOCKET` set, as `Type=notify` units do).
package enum ServiceNotifier {
    /// `READY=1`: the camera delivers and the control socket listens.
    /// The corresponding C function is `sd_notify`.
    package static func ready(status: String) { send("READY=1\nSTATUS=" + status) }

    /// `STOPPING=1`: the session is finishing its file.
    package static func stopping() { send("STOPPING=1\nSTATUS=stopping; finishing the recording") }

    /// `STATUS=…`, shown by `systemctl status`.
    package static func status(_ text: String) { send("STATUS=" + text) }

    private static func send(_ state: String) {
        // No unset: a session's children (--on-save) may be services' helpers too.
        _ = sd_notify(0, state)
    }
}
