import Foundation
import Glibc

extension PipeWireTestSession {
    /// Tests/Support/wayland: the ScreenCast backend, the portal file and the drawing client.
    public static let waylandSupport = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("wayland").path

    /// Copies Tests/Support/wayland into `folder/wl`, owned by the user, who runs it.
    func copyWaylandSupport() throws {
        let target = folder + "/wl"
        try FileManager.default.copyItem(atPath: Self.waylandSupport, toPath: target)
        guard getuid() == 0 else { return }
        let account = try SSHTestServer.account()
        for path in [target, target + "/portals"] + ((try? FileManager.default.subpathsOfDirectory(atPath: target)) ?? []).map({ target + "/" + $0 }) {
            guard chown(path, account.uid, account.gid) == 0 else { throw ServerFailure("chown \(path) failed") }
        }
    }

    /// The shell lines that start mutter, the test backend and the portal frontend, each waited
    /// for by its bus name (`gdbus wait`, bounded by 30 s), and export what a client needs: the
    /// Wayland display and the desktop the portal file's `UseIn=` names. `mutter.pid` holds
    /// mutter's pid, for a test that kills the compositor.
    static func mutter(width: Int, height: Int) -> String {
        """
        export XDG_CURRENT_DESKTOP=rectest XDG_SESSION_TYPE=wayland GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1
        mutter --headless --virtual-monitor \(width)x\(height) --wayland --no-x11 --wayland-display=wayland-rec >mutter.log 2>&1 &
        echo $! >mutter.pid; pids="$pids $!"
        gdbus wait --session --timeout 30 org.gnome.Mutter.ScreenCast || { echo "mutter did not start"; exit 1; }
        export WAYLAND_DISPLAY=wayland-rec
        /usr/bin/python3 wl/screencast-backend.py >backend.log 2>&1 & pids="$pids $!"
        gdbus wait --session --timeout 30 org.freedesktop.impl.portal.desktop.rectest || { echo "the test backend did not start"; exit 1; }
        XDG_DESKTOP_PORTAL_DIR="$PWD/wl/portals" /usr/libexec/xdg-desktop-portal -v >portal.log 2>&1 & pids="$pids $!"
        gdbus wait --session --timeout 30 org.freedesktop.portal.Desktop || { echo "xdg-desktop-portal did not start"; exit 1; }
        """
    }
}
