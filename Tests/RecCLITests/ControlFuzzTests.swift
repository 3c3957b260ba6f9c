import Foundation
import Glibc
import Synchronization
import Testing
import TestPool

/// A real session on the stand-in camera takes ~10,000 generated control messages over many
/// connections (ControlFuzz), from clients that misbehave in every way a socket allows. After it:
/// alive, answering, no frame dropped, an exact clip saved, nothing written outside the sandbox.
@Suite(.blocking) struct ControlFuzzTests {
    typealias Sandbox = BackgroundSessionTests.Sandbox

    /// How one connection behaves.
    enum Manner: CaseIterable { case polite, neverReads, halfCloses, idle, hangsUpOnAWait, truncates }

    struct Counts {
        var messages = 0, connections = 0, replies = 0, refusedConnects = 0, clips = 0
    }

    /// One worker's connections, until it has sent `budget` messages or `deadline` passes.
    static func traffic(socket: String, folder: String, seed: UInt64, budget: Int, deadline: ContinuousClock.Instant) -> Counts {
        var fuzz = ControlFuzz(seed: seed, folder: folder)
        var counts = Counts()
        var idle: [RawClient] = []
        while counts.messages < budget && ContinuousClock.now < deadline {
            guard let client = RawClient(path: socket) else { counts.refusedConnects += 1; continue }
            counts.connections += 1
            let manner = fuzz.pick(Manner.allCases)
            let n = manner == .idle ? 0 : Int(fuzz.rng.next() % 20) + 1
            if manner == .hangsUpOnAWait {
                client.send(#"{"v":1,"id":1,"type":"save","from":"-1s","to":"+1000s","output":"\#(folder)/wait.mp4"}"# + "\n")
                counts.messages += 1
                continue // released here: the close is the hang-up
            }
            for _ in 0..<n {
                guard client.send(fuzz.message()) else { break }
                counts.messages += 1
            }
            switch manner {
            case .polite, .halfCloses:
                if manner == .halfCloses { client.shutdownWrite() }
                for _ in 0..<(manner == .polite ? n : 10_000) {
                    guard client.readLine(timeoutMs: 3_000) != nil else { break }
                    counts.replies += 1
                }
            case .idle:
                idle.append(client)
                if idle.count > 8 { idle.removeFirst() }
            case .truncates:
                client.send(#"{"v":1,"id":1,"type":"sa"#)
            case .neverReads, .hangsUpOnAWait:
                break
            }
        }
        counts.clips = fuzz.clips
        return counts
    }

    @Test func aSessionSurvivesTenThousandHostileMessages() throws {
        let box = try Sandbox()
        let session = "fuzz01"
        // Its bytes, not its time: another test's `usermod` (SSHTestServer's account) rewrites
        // /etc/passwd with the same lines, and did so during this test in one CI run.
        let passwd = try Data(contentsOf: URL(fileURLWithPath: "/etc/passwd"))
        #expect(try box.rec(["start", "--session", session, "--source", "test:320x240@30", "--no-file"]).status == 0)
        try box.waitForFrames(45, session: session)
        let socket = box.folder + "/run/rec/\(session)/control.sock"
        let workers = 6, budget = 10_000 / 6 + 1
        let total = Mutex(Counts())
        let started = ContinuousClock.now
        let deadline = started + .seconds(35)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let counts = Self.traffic(socket: socket, folder: box.folder, seed: 0xF022 + UInt64(worker), budget: budget, deadline: deadline)
            total.withLock {
                $0.messages += counts.messages; $0.connections += counts.connections; $0.replies += counts.replies
                $0.refusedConnects += counts.refusedConnects; $0.clips += counts.clips
            }
        }
        let counts = total.withLock { $0 }
        print("fuzz: \(counts.messages) messages over \(counts.connections) connections in \(ContinuousClock.now - started); "
              + "\(counts.replies) replies read, \(counts.refusedConnects) connects refused, \(counts.clips) clip requests")
        #expect(counts.messages >= 9_000)

        // Alive, answering, and nothing dropped.
        let status = try box.rec(["status", "--session", session, "--json"])
        let log = (try? String(contentsOfFile: box.folder + "/run/rec/\(session)/log", encoding: .utf8)) ?? "no log"
        #expect(status.status == 0, "\(status.error)\n\(log.suffix(3_000))")
        let fields = (try? JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any]) ?? [:]
        #expect(fields["state"] as? String == "recording")
        #expect(fields["dropped_late"] as? Int == 0)
        #expect(fields["dropped_by_driver"] as? Int == 0)
        let save = try box.rec(["save", "--session", session, "--last", "1s", "-o", "clip.mp4"])
        #expect(save.status == 0, "\(save.error)")
        let stamps = try box.stamps("clip.mp4")
        #expect(stamps.count == 30 && BackgroundSessionTests.consecutive(stamps), "\(stamps)")

        // Nothing written where a save may not write.
        #expect(try Data(contentsOf: URL(fileURLWithPath: "/etc/passwd")) == passwd)
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent-rec-fuzz"))
        let written = try FileManager.default.contentsOfDirectory(atPath: box.folder).filter { $0 != "run" }
        #expect(written.allSatisfy { $0 == "clip.mp4" || $0.hasPrefix("fz-") }, "\(written)")
        #expect(try box.rec(["stop", "--session", session]).status == 0)
    }
}
