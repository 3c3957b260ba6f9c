import Foundation
import Testing
import TestServers
import TestPool

/// Issue 23: Debian's sshd as a second box on loopback: a key login as its own user, with the
/// box's own runtime folder, and SFTP for the copies to an SFTP remote.
@Suite(.blocking) struct SSHTestServerTests {
    @Test func logsInWithTheKeyAsTheBoxUserAndServesSFTP() throws {
        let server = try SSHTestServer()
        let login = try server.ssh("true")
        #expect(login.status == 0, "\(login.error)\n\(server.process.logTail())")
        let who = try server.ssh("id -un; echo \"$XDG_RUNTIME_DIR\"; test -w \"$XDG_RUNTIME_DIR\" && echo writable")
        #expect(who.output.split(separator: "\n").map(String.init) == [server.user, server.runtimeFolder, "writable"], "\(who)")

        // SFTP: put a file and read it back through the server's internal-sftp.
        let local = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: local) }
        try "box\n".write(toFile: local + "/sent.txt", atomically: true, encoding: .utf8)
        try "put \(local)/sent.txt \(server.runtimeFolder)/got.txt\nget \(server.runtimeFolder)/got.txt \(local)/back.txt\n"
            .write(toFile: local + "/batch", atomically: true, encoding: .utf8)
        let sftp = try Tool.run("sftp", ["-F", server.clientConfig, "-P", String(server.port), "-b", local + "/batch",
                                         "\(server.user)@127.0.0.1"], check: false)
        #expect(sftp.status == 0, "\(sftp.stderr)\n\(server.process.logTail())")
        #expect(try String(contentsOfFile: local + "/back.txt", encoding: .utf8) == "box\n")
    }

    /// Only the key logs in: no password prompt is even offered, and another key is refused.
    @Test func anotherKeyIsRefused() throws {
        let server = try SSHTestServer()
        let other = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: other) }
        try Tool.run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", other + "/key"])
        let config = try String(contentsOfFile: server.clientConfig, encoding: .utf8)
            .replacingOccurrences(of: server.identityFile, with: other + "/key")
        try config.write(toFile: other + "/ssh_config", atomically: true, encoding: .utf8)
        let refused = try Tool.run("ssh", ["-F", other + "/ssh_config", "-p", String(server.port), "\(server.user)@127.0.0.1", "true"],
                                   check: false)
        #expect(refused.status == 255 && refused.stderr.contains("Permission denied (publickey)"), "\(refused.stderr)")
    }
}
