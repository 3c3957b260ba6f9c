import Foundation
import Glibc

/// A headless X server of the test's own on a display number it picks itself (`-displayfd`: the
/// server writes the number once it accepts clients, so readiness is that line, never a sleep).
/// Xvfb by default; TigerVNC's Xvnc (no VNC port open) where the screen must change size, since
/// Debian 12's Xvfb refuses every RandR size change (RRSetScreenSize and RRSetCrtcConfig answer
/// BadValue) and Xvnc switches among its modes (`xrandr --output VNC-0 --mode 800x600`). The
/// X tools the tests drive it with (xsetroot, xrandr, xdotool, xmessage) run with its `DISPLAY`.
public final class XvfbServer {
    public enum Kind: Sendable {
        case xvfb
        /// Resizable through RandR; its output is `VNC-0`.
        case xvnc
    }

    public private(set) var process: ServerProcess
    /// `:N`.
    public let display: String

    /// Starts Xvfb with one screen of `width`x`height` at 24 bits; returns once it accepts clients.
    public init(width: Int = 640, height: Int = 480, kind: Kind = .xvfb) throws {
        let name = kind == .xvfb ? "Xvfb" : "Xvnc"
        guard let xvfb = Self.path(name) else {
            throw ServerFailure("\(name) is not installed, so the screen tests cannot run a display; run scripts/setup.sh "
                                + "(it installs xvfb and tigervnc-standalone-server)")
        }
        let arguments = kind == .xvfb
            ? ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"]
            : ["-displayfd", "1", "-geometry", "\(width)x\(height)", "-depth", "24", "-SecurityTypes", "None", "-rfbport", "-1",
               "-nolisten", "tcp", "-noreset"]
        // -noreset: an X server resets when its last client leaves, and a reset paints the root
        // black again, so xsetroot's colour would last only until xsetroot exits.
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw ServerFailure("pipe: \(String(cString: strerror(errno)))") }
        defer { close(fds[0]) }
        do {
            process = try ServerProcess(xvfb, arguments, output: fds[1])
        } catch {
            close(fds[1])
            throw error
        }
        close(fds[1])
        // The number, then a newline; end of file if the server failed first.
        var text = ""
        var byte: UInt8 = 0
        while read(fds[0], &byte, 1) == 1, byte != 10 { text.append(Character(UnicodeScalar(byte))) }
        guard let number = Int(text) else {
            let log = process.logTail()
            process.kill()
            throw ServerFailure("\(name) did not start: \(log)")
        }
        display = ":\(number)"
    }

    deinit { process.kill() }

    /// The environment for a program that should use this server.
    public func environment(_ base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var env = base
        env["DISPLAY"] = display
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        env.removeValue(forKey: "XDG_SESSION_TYPE")
        return env
    }

    /// Runs an X tool to its end against this server; its status and standard output.
    @discardableResult
    public func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        guard let path = Self.path(tool) else { throw ServerFailure("\(tool) is not installed; run scripts/setup.sh") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        p.environment = environment()
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Paints the root window one colour (an X colour name or #rrggbb); returns once the server
    /// has done it (xsetroot waits for its requests to be handled before it exits).
    public func paint(_ colour: String) throws {
        let r = try run("xsetroot", ["-solid", colour])
        guard r.status == 0 else { throw ServerFailure("xsetroot -solid \(colour) failed") }
    }

    /// Starts a long-lived X client (a window), which the caller ends.
    public func launch(_ tool: String, _ arguments: [String]) throws -> ServerProcess {
        guard let path = Self.path("env") else { throw ServerFailure("env is missing") }
        return try ServerProcess(path, ["DISPLAY=\(display)", tool] + arguments)
    }

    /// Ends the server at once (SIGKILL), as a crash or a lost session would.
    public func kill() { process.kill() }

    static func path(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(tool)" }.first { access($0, X_OK) == 0 }
    }
}
