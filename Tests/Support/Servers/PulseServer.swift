import Foundation
import Glibc
import TestFileWatch

/// A PulseAudio server of the test's own, for programs the test runs (rec, paplay, pactl) that
/// find it through `PULSE_SERVER`: null sinks named by the test (the first is the default
/// output, so its monitor is the desktop's sound), a socket in a private folder, a private HOME
/// and XDG_RUNTIME_DIR, so the machine's own server, if any, is never touched.
public final class PulseServer {
    public let folder: String
    /// `unix:FOLDER/native`, as `PULSE_SERVER` takes it.
    public let address: String
    public private(set) var process: ServerProcess

    /// Starts the server with one null sink per name; returns once its socket answers.
    public init(sinks: [String]) throws {
        guard XvfbServer.path("pulseaudio") != nil, let env = XvfbServer.path("env") else {
            throw ServerFailure("pulseaudio is not installed; run scripts/setup.sh (it installs pulseaudio and pulseaudio-utils)")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rec-pulse-\(UUID().uuidString.prefix(8))").path
        for sub in ["home", "run"] {
            try FileManager.default.createDirectory(atPath: "\(folder)/\(sub)", withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        address = "unix:\(folder)/native"
        let modules = sinks.map { "--load=module-null-sink sink_name=\($0)" }
        process = try ServerProcess(env, ["-u", "PULSE_SERVER", "HOME=\(folder)/home", "XDG_RUNTIME_DIR=\(folder)/run",
                                          "pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit",
                                          "--use-pid-file=no", "--log-level=info"] + modules
                                          + ["--load=module-native-protocol-unix socket=\(folder)/native"])
        // It logs "Daemon startup complete." once it answers; its socket's file appears earlier,
        // at bind, before it listens, and a client that came then was refused. The log's writes
        // wake the watch (the line may already be there: the condition is checked first).
        let logPath = process.logPath
        let started = { ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").contains("Daemon startup complete") }
        let watch = FileWatch([logPath])
        _ = watch.wait(timeout: 30) { started() || !process.isRunning }
        guard started() else {
            let log = process.logTail()
            process.kill()
            throw ServerFailure("the test's PulseAudio server did not start: \(log)")
        }
    }

    deinit {
        process.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// `environment` with `PULSE_SERVER` set to this server.
    public func environment(_ base: [String: String]) -> [String: String] {
        var env = base
        env["PULSE_SERVER"] = address
        return env
    }
}
