import Foundation
import Glibc

/// rclone's own WebDAV server (`rclone serve webdav`) on 127.0.0.1, serving a folder of the test
/// with a user and password: the destination the `--upload` tests copy to. What a client
/// uploads lands in `root`, where the test reads it back.
public final class WebDAVTestServer: TestServer {
    public let root: String
    public let user = "rec"
    public let password: String
    public private(set) var process: ServerProcess
    public private(set) var port: Int

    /// Serves `root` (made if missing) and returns once the server listens.
    public init(root: String) throws {
        self.root = root
        password = "pw-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        var attempt = 0
        while true {
            let chosen = try LoopbackPort.free()
            do {
                process = try Self.launch(root: root, port: chosen, user: user, password: password)
                port = chosen
                return
            } catch let failure as ServerFailure where attempt < 3 && failure.description.contains("in use") {
                attempt += 1     // another process took the free port first
            }
        }
    }

    public func restart() throws {
        process.stop()
        process = try Self.launch(root: root, port: port, user: user, password: password)
    }

    public var url: String { "http://127.0.0.1:\(port)" }

    /// An rclone configuration file with this server as remote `name` (the password obscured as
    /// rclone wants it), written to `path`; point RCLONE_CONFIG at it.
    public func writeConfig(to path: String, name: String = "dav", password: String? = nil) throws {
        let obscured = try Self.rclone(["obscure", password ?? self.password]).trimmingCharacters(in: .whitespacesAndNewlines)
        let text = "[\(name)]\ntype = webdav\nurl = \(url)\nvendor = other\nuser = \(user)\npass = \(obscured)\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    private static func launch(root: String, port: Int, user: String, password: String) throws -> ServerProcess {
        let process = try ServerProcess("/usr/bin/rclone", ["serve", "webdav", root, "--addr", "127.0.0.1:\(port)",
                                                            "--user", user, "--pass", password, "--log-level", "ERROR"])
        // It says nothing once it listens: watch for its socket, waking on its pidfd (which also
        // reports an early exit) every 20 ms; 30 s is a hang guard.
        let deadline = ContinuousClock.now + .seconds(30)
        while !LoopbackPort.isBound(port, udp: false, by: process.pid) {
            if process.waitForExit(timeout: .milliseconds(20)) {
                let log = process.logTail()
                throw ServerFailure("rclone serve webdav did not listen on port \(port)\(log.contains("in use") ? " (in use)" : ""): \(log)")
            }
            guard ContinuousClock.now < deadline else {
                process.kill()
                throw ServerFailure("rclone serve webdav did not listen on port \(port) within 30 s: \(process.logTail())")
            }
        }
        return process
    }

    /// rclone's standard output for `arguments`.
    public static func rclone(_ arguments: [String]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rec-rclone-\(UUID())").path
        guard FileManager.default.createFile(atPath: folder, contents: nil) else { throw ServerFailure("cannot make \(folder)") }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fd = open(folder, O_WRONLY)
        defer { close(fd) }
        let process = try ServerProcess("/usr/bin/rclone", arguments, output: fd)
        guard process.waitForExit(timeout: .seconds(30)) else { throw ServerFailure("rclone \(arguments.first ?? "") hung") }
        return (try? String(contentsOfFile: folder, encoding: .utf8)) ?? ""
    }
}
