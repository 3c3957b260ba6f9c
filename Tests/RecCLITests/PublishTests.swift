import Foundation
import Glibc
import Media
import Testing

/// `rec start --publish`: the encoded packets reach a real RTMP receiver (ffmpeg listening on
/// loopback), publishing resumes after the receiver is killed and restarted, and the recording
/// loses nothing meanwhile.
@Suite struct PublishTests {
    typealias Sandbox = BackgroundSessionTests.Sandbox

    static func receiver(port: Int, output: String) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        p.arguments = ["-nostdin", "-v", "error", "-analyzeduration", "0", "-probesize", "4096", "-listen", "1",
                       "-i", "rtmp://127.0.0.1:\(port)/live/x", "-c", "copy", "-flush_packets", "1", "-y", output]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    /// SIGKILL: the test process's threads block SIGINT and SIGTERM, and ffmpeg inherits that mask.
    /// An FLV cut short is still readable up to its last whole packet.
    static func kill(_ process: Process) {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits (bounded) until the receiver has written `bytes` of what it got.
    static func wait(for file: String, bytes: Int) {
        for _ in 0..<300 {
            if let size = try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int, size >= bytes { return }
            usleep(100_000)
        }
        Issue.record("\(file) never reached \(bytes) bytes")
    }

    /// Waits (bounded, generously) until the session's publish status satisfies `ready`.
    static func wait(_ sandbox: Sandbox, _ what: String, until ready: ([String: String]) -> Bool) throws {
        for _ in 0..<300 {
            let extra = try sandbox.status()["extra"] as? [String: String] ?? [:]
            if ready(extra) { return }
            usleep(100_000)
        }
        Issue.record("publishing never reached: \(what) (\(try sandbox.status()["extra"] ?? [:]))")
    }

    @Test func publishingSurvivesTheServerGoingAwayAndTheRecordingLosesNothing() throws {
        let sandbox = try Sandbox()
        let port = HTTPTestClient.freePort()
        let first = try Self.receiver(port: port, output: sandbox.path("first.flv"))
        defer { if first.isRunning { Self.kill(first) } }
        usleep(300_000)
        let started = try sandbox.rec(["start", "--source", "test:320x240@30", "-o", sandbox.path("rec.mp4"),
                                       "--publish", "rtmp://127.0.0.1:\(port)/live/x"])
        #expect(started.status == 0, "\(started.error)")
        Self.wait(for: sandbox.path("first.flv"), bytes: 30_000)
        Self.kill(first)
        try Self.wait(sandbox, "a retry") { Int($0["publish_retries"] ?? "") ?? 0 >= 1 && $0["publish_error"] != nil }
        let sentBefore = Int(try sandbox.status()["extra"].flatMap { ($0 as? [String: String])?["publish_bytes"] } ?? "") ?? 0
        let second = try Self.receiver(port: port, output: sandbox.path("second.flv"))
        defer { if second.isRunning { Self.kill(second) } }
        try Self.wait(sandbox, "publishing again") { $0["publish_state"] == "publishing" && (Int($0["publish_bytes"] ?? "") ?? 0) > sentBefore }
        Self.wait(for: sandbox.path("second.flv"), bytes: 30_000)
        Self.kill(second)
        #expect(try sandbox.rec(["stop"]).status == 0)

        let a = try FrameReader.read(path: sandbox.path("first.flv")).frames.compactMap(\.stamp)
        let b = try FrameReader.read(path: sandbox.path("second.flv")).frames.compactMap(\.stamp)
        #expect(a.count > 20 && BackgroundSessionTests.consecutive(a), "first receiver: \(a)")
        #expect(b.count > 20 && BackgroundSessionTests.consecutive(b), "second receiver: \(b)")
        #expect((b.first ?? 0) > (a.last ?? .max), "the second connection starts after the first ended")
        let recorded = try FrameReader.read(path: sandbox.path("rec.mp4")).frames.map(\.stamp)
        #expect(recorded.first == 0 && BackgroundSessionTests.consecutive(recorded) && recorded.count > (b.last ?? 0))
    }
}
