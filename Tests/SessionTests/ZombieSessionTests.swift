import Foundation
import Glibc
import SessionControl
import Testing
import TestPool

/// Issue 39: a session killed with -9 whose process stays a zombie (its parent does not reap it,
/// as a container's first process often does not) is stale, not "already running".
@Suite(.blocking) struct ZombieSessionTests {
    @Test func theStateLetterComesAfterTheCommandWhateverItHolds() {
        #expect(ProcessState.letter(ofStat: "1234 (rec-engine) S 1 1234") == "S")
        #expect(ProcessState.letter(ofStat: "1234 (a) b) (c) Z 1 1234") == "Z")
        #expect(ProcessState.letter(ofStat: "garbage") == nil)
    }

    @Test func aZombieSessionIsStale() throws {
        // A real zombie: a child of this process that has exited and that nothing reaps.
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { argv.forEach { free($0) } }
        try #require(posix_spawn(&pid, "/bin/true", nil, nil, argv, environ) == 0)
        defer { waitpid(pid, nil, 0) }
        // Waits for it to exit without reaping it (WNOWAIT): it is a zombie from here.
        var info = siginfo_t()
        try #require(waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == 0)
        #expect(kill(pid, 0) == 0, "a zombie answers kill(pid, 0)")

        let root = NSTemporaryDirectory() + "rec-zombie-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/zombie", withIntermediateDirectories: true)
        try Data("\(pid)\n".utf8).write(to: URL(fileURLWithPath: root + "/zombie/pid"))
        let runtime = RuntimeDirectory(path: root)
        let presence = try runtime.inspect("zombie")
        guard case .stale(let reason) = presence else {
            Issue.record("a killed session's zombie was taken for \(presence)")
            return
        }
        #expect(reason.contains("zombie"))
        #expect(throws: Never.self) { try runtime.checkAvailable("zombie") }
    }
}
