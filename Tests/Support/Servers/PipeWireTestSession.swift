import Foundation
import Glibc
import TestFileWatch

/// A private PipeWire + WirePlumber for one test, run as an ordinary user (`recbox` when the tests
/// run as root, as SSHTestServer makes it) under `dbus-run-session` with a runtime folder of its
/// own, and a shell script run inside it as that user: the producer (`gst-launch-1.0 …
/// pipewiresink`) and the `rec` that reads it share that user's PipeWire, as a desktop's programs do.
public final class PipeWireTestSession {
    /// A folder the user can write in (the script's working folder), removed with this object.
    public let folder: String
    private let account: SSHTestServer.Account
    private let asRoot = getuid() == 0

    public init() throws {
        account = try SSHTestServer.account()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rec-pipewire-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder + "/run", withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder + "/run")
        if asRoot {
            for path in [folder, folder + "/run"] {
                guard chown(path, account.uid, account.gid) == 0 else { throw ServerFailure("chown \(path) failed") }
            }
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// The shell line that starts a `videotestsrc` of one solid colour (0xAARRGGBB) as node `name`
    /// in `format` (BGRx, RGBx …) in the background, then waits until PipeWire lists the node
    /// (`pw-dump --monitor` prints it; bounded by 30 s), and stops `pw-dump` at once (in a pipe it
    /// would live until it next wrote).
    public static func producer(name: String, colour: UInt32, format: String, size: String = "320x240", rate: Int = 30) -> String {
        let wh = size.split(separator: "x")
        return "gst-launch-1.0 -q videotestsrc pattern=solid-color foreground-color=\(colour) is-live=true "
            + "! video/x-raw,format=\(format),width=\(wh[0]),height=\(wh[1]),framerate=\(rate)/1 "
            + "! pipewiresink mode=provide stream-properties=\"p,media.class=Video/Source,node.name=\(name)\" 2>gst-\(name).log & "
            + "pids=\"$pids $!\"; rm -f dump.fifo; mkfifo dump.fifo; timeout 30 pw-dump --monitor >dump.fifo & dump=$!; "
            + "grep -m1 -q '\"node.name\": \"\(name)\"' <dump.fifo; kill $dump 2>/dev/null\n"
    }

    /// A compositor and the ScreenCast portal for `--source wayland`.
    public enum Desktop: Sendable {
        /// A headless sway (pixman renderer, output HEADLESS-1), with the session bus's activation
        /// environment naming it, so xdg-desktop-portal starts xdg-desktop-portal-wlr (configured
        /// with `chooser_type=none` for that output) when asked; its Start is refused here
        /// (docs/WAYLAND.md).
        case sway
        /// A headless mutter (one virtual monitor of this size, Wayland display `wayland-rec`),
        /// the real xdg-desktop-portal frontend, started by hand and pointed at
        /// Tests/Support/wayland/portals alone (`XDG_DESKTOP_PORTAL_DIR`), and the test's
        /// ScreenCast backend (`screencast-backend.py`), which answers as a backend must and hands
        /// out the node mutter's own ScreenCast API makes. Its log is `backend.log` in `folder`.
        case mutter(width: Int, height: Int)
    }

    /// Runs `script` (sh) as the user with PipeWire and WirePlumber started first and stopped after;
    /// returns its exit status and what it printed (standard output and error, with PipeWire's logs
    /// when it failed). Waits up to `timeout` for the script to end. `desktop` adds a compositor
    /// and the portal.
    public func run(_ script: String, desktop: Desktop? = nil, timeout: Duration = .seconds(120)) throws -> (status: Int32, output: String) {
        let sway = """
            mkdir -p .config/xdg-desktop-portal-wlr
            printf '[screencast]\\nchooser_type=none\\noutput_name=HEADLESS-1\\n' > .config/xdg-desktop-portal-wlr/config
            printf 'output HEADLESS-1 bg #ff0000 solid_color\\n' > sway.conf
            WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 sway -c sway.conf 2>sway.log & pids="$pids $!"
            read ready < ready.fifo
            export WAYLAND_DISPLAY=wayland-1 XDG_CURRENT_DESKTOP=sway
            dbus-update-activation-environment WAYLAND_DISPLAY XDG_CURRENT_DESKTOP
            """
        let compositor: String
        switch desktop {
        case .sway: compositor = sway
        case .mutter(let width, let height):
            try copyWaylandSupport()
            compositor = Self.mutter(width: width, height: height)
        case nil: compositor = ""
        }
        let body = """
            cd '\(folder)'
            pipewire 2>pipewire.log & pids=$!
            read ready < ready.fifo
            wireplumber 2>wireplumber.log & pids="$pids $!"
            trap 'kill $pids 2>/dev/null' EXIT
            \(compositor)
            \(script)
            """
        let environment = ["PATH=/usr/bin:/bin", "HOME=\(folder)", "XDG_RUNTIME_DIR=\(folder)/run", "LANG=C.UTF-8"]
        let command = ["/usr/bin/env", "-i"] + environment + ["dbus-run-session", "--", "/bin/sh", "-c", body]
        // The script waits on this FIFO after starting PipeWire; the test writes to it once
        // PipeWire's socket is there (held open read-write, so neither side's open blocks).
        let fifo = folder + "/ready.fifo"
        guard mkfifo(fifo, 0o600) == 0, !asRoot || chown(fifo, account.uid, account.gid) == 0 else {
            throw ServerFailure("cannot make \(fifo)")
        }
        let go = open(fifo, O_RDWR | O_CLOEXEC)
        guard go >= 0 else { throw ServerFailure("cannot open \(fifo)") }
        defer { Glibc.close(go) }
        let socket = folder + "/run/pipewire-0"
        let watch = FileWatch([folder + "/run"], mask: UInt32(IN_CREATE | IN_MOVED_TO))
        let outPath = folder + "/script.out"
        let out = open(outPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard out >= 0 else { throw ServerFailure("cannot create \(outPath)") }
        defer { Glibc.close(out) }
        let process = asRoot
            ? try ServerProcess("/usr/sbin/runuser", ["-u", account.name, "--"] + command, output: out)
            : try ServerProcess(command[0], Array(command.dropFirst()), output: out)
        guard watch.wait(timeout: 30, until: { FileManager.default.fileExists(atPath: socket) }) else {
            process.kill()
            throw ServerFailure("PipeWire made no socket \(socket) within 30 s: \(log())")
        }
        guard write(go, "go\n", 3) == 3 else { throw ServerFailure("cannot write to \(fifo)") }
        if case .sway = desktop {
            let wayland = folder + "/run/wayland-1"
            guard watch.wait(timeout: 30, until: { FileManager.default.fileExists(atPath: wayland) }) else {
                process.kill()
                throw ServerFailure("sway made no socket \(wayland) within 30 s: \(log())")
            }
            guard write(go, "go\n", 3) == 3 else { throw ServerFailure("cannot write to \(fifo)") }
        }
        guard process.waitForExit(timeout: timeout) else {
            process.kill()
            throw ServerFailure("the PipeWire test script did not end within \(timeout): \(log())")
        }
        let status = process.status.map { ($0 >> 8) & 0xff } ?? -1
        let output = ((try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "") + process.logTail(3000)
        return (Int32(status), status == 0 ? output : output + log())
    }

    private func log() -> String {
        ["pipewire.log", "wireplumber.log", "sway.log", "mutter.log", "backend.log", "portal.log"].map { name in
            "\n== \(name)\n" + String(((try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? "").suffix(1500))
        }.joined()
    }
}
