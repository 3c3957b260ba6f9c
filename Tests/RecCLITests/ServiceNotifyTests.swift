import Foundation
import Testing
import TestPool

/// A datagram socket standing in for systemd's `NOTIFY_SOCKET`: what `sd_notify` sends arrives here.
final class NotifySocket {
    let path: String
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, bound == 0 else { throw CocoaError(.fileWriteUnknown) }
        // A backstop so a broken session cannot hang the suite; the test waits on messages, not time.
        var limit = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd); unlink(path) }

    /// Reads messages until one contains `text`; returns it, or nil if the sender fell silent.
    func wait(for text: String, orFailure failure: String? = nil) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { return nil }
            let message = String(decoding: buffer[0..<n], as: UTF8.self)
            if message.contains(text) || failure.map(message.contains) == true { return message }
        }
    }
}

/// `rec start --session NAME --foreground` as the user unit runs it (`Type=notify`): readiness and
/// stopping reach the notify socket, SIGUSR1 saves the configured span, SIGTERM ends cleanly.
/// This is the path CI takes where no systemd user manager runs; scripts/ci-install.sh runs the
/// real unit where one does.
@Suite(.blocking) struct ServiceNotifyTests {
    @Test func readyThenSignalSaveThenStopping() throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let runtime = folder + "/run"
        try FileManager.default.createDirectory(atPath: runtime + "/cfg/rec", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try """
            {
              "usr1-last": "10s",
              "sessions": {"svc": {"output": "\(folder)/clips/replay-%Y-%m-%d_%H-%M-%S.mp4"}}
            }
            """.write(toFile: runtime + "/cfg/rec/config.json", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: folder + "/clips", withIntermediateDirectories: true)
        let notify = try NotifySocket(path: folder + "/notify.sock")
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["XDG_CONFIG_HOME"] = runtime + "/cfg"
        environment["NOTIFY_SOCKET"] = notify.path
        environment.removeValue(forKey: "REC_SESSION_CHILD")
        let process = Process()
        process.executableURL = RecBinary.url
        process.arguments = ["start", "--session", "svc", "--foreground", "--source", "test:320x240@30", "--no-file"]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        let ready = try #require(notify.wait(for: "READY=1"))
        #expect(ready.contains("STATUS=recording"))
        // A save needs encoded frames in the ring: the session answers once it has some.
        let frames = try RecBinary.run(["status", "--session", "svc", "--wait-frames", "30", "--timeout", "60s"], environment: environment)
        #expect(frames.status == 0, "\(frames.error)")
        kill(process.processIdentifier, SIGUSR1)
        let saved = try #require(notify.wait(for: "STATUS=saved ", orFailure: "failed"))
        let line = try #require(saved.split(separator: "\n").first { $0.hasPrefix("STATUS=saved ") }, "\(saved)")
        let path = String(line.dropFirst(13))
        #expect(path.hasPrefix(folder + "/clips/replay-"), "\(saved)")
        #expect(FileManager.default.fileExists(atPath: path))
        // save --notify with no desktop bus: the clip is still saved, and the warning says why.
        var noBus = environment
        noBus["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + folder + "/no-bus"
        let notified = try RecBinary.run(["save", "--session", "svc", "--last", "1s", "--notify", "-o", folder + "/clips/n.mp4"],
                                         environment: noBus)
        #expect(notified.status == 0, "\(notified.error)")
        #expect(notified.error.contains("rec: warning: the clip is saved, but"), "\(notified.error)")
        #expect(FileManager.default.fileExists(atPath: folder + "/clips/n.mp4"))
        kill(process.processIdentifier, SIGTERM)
        #expect(notify.wait(for: "STOPPING=1") != nil)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }
}
