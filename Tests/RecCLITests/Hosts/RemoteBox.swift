import Foundation
import Synchronization
import Testing
import TestServers

/// A second box for the `--host` tests: the test's sshd, whose user runs rec from its own install
/// prefix (scripts/install.sh of the build under test, once per test run, into a folder that
/// user can read), on its PATH as a real box's login would have it.
enum RemoteBox {
    /// The install prefix, installed on first use in each test run. One folder per build (named
    /// by a hash of its path), installed over at each run, so runs leave no more than one behind.
    static func prefix() throws -> String {
        try installed.withLock { prefix in
            if let prefix { return prefix }
            let bin = RecBinary.url.deletingLastPathComponent().path
            let hash = bin.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
            let made = FileManager.default.temporaryDirectory.appendingPathComponent("rec-test-box-\(String(hash, radix: 16))").path
            try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: made)
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
            let install = try Tool.run("bash", [root.path + "/scripts/install.sh", "--prefix", made, "--bin-path", bin], check: false)
            guard install.status == 0 else {
                throw Tool.Failure("scripts/install.sh --prefix \(made) --bin-path \(bin) failed: \(install.stderr.suffix(1500))")
            }
            prefix = made
            return made
        }
    }

    private static let installed = Mutex<String?>(nil)

    /// A box: sshd with rec from the install on its login's PATH.
    static func start() throws -> SSHTestServer {
        try SSHTestServer(environment: ["PATH": try prefix() + "/bin:/usr/bin:/bin"])
    }

    /// The environment for a local `rec` in `box` that reaches the server's box with the server's
    /// client key and known_hosts.
    static func environment(_ box: BackgroundSessionTests.Sandbox, _ server: SSHTestServer, _ extra: [String: String] = [:]) -> [String: String] {
        box.environment.merging(["REC_SSH_CONFIG": server.clientConfig]) { _, new in new }.merging(extra) { _, new in new }
    }

    /// Starts stand-in camera sessions on the box (as its user, in its runtime folder) and waits
    /// until each has `frames` frames.
    static func startSessions(_ names: [String], on server: SSHTestServer, frames: Int) throws {
        for name in names {
            let start = try server.ssh("rec start --session \(name) --source test:320x180@30 --no-file")
            try #require(start.status == 0, "rec start on the box: \(start.error)")
        }
        for name in names {
            let wait = try server.ssh("rec status --session \(name) --wait-frames \(frames) --timeout 60s")
            try #require(wait.status == 0, "session \(name) on the box: \(wait.error)")
        }
    }

    /// Stops every session on the box (a failed test's included).
    static func stopAll(on server: SSHTestServer) {
        _ = try? server.ssh("for s in $(ls \"$XDG_RUNTIME_DIR/rec\" 2>/dev/null); do rec stop --session \"$s\" >/dev/null; done")
    }

    /// Temporary folders the box's commands left in its /tmp.
    static func leftovers(on server: SSHTestServer) throws -> [String] {
        try server.ssh("ls -d /tmp/rec-remote.* 2>/dev/null; true").output.split(separator: "\n").map(String.init)
    }
}
