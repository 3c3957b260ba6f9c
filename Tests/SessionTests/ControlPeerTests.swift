import Foundation
import Glibc
import RecCore
import Session
import Testing
import TestPool

/// A real connection from another uid, checked by the server with `SO_PEERCRED`. It needs root
/// (to run a client as `nobody` with setpriv) and perl as that client; elsewhere it is skipped.
@Suite("ControlServer peer check", .blocking)
struct ControlPeerTests {
    static let canSwitchUser = getuid() == 0
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/perl")

    @Test("a client running as nobody is refused by uid", .enabled(if: canSwitchUser))
    func nobodyRefused() throws {
        let running = try RunningServer()
        // Open the folders and socket so that only SO_PEERCRED stands in the way.
        for path in [running.temp.root, running.temp.runtime.path, running.folder.path] {
            #expect(chmod(path, 0o711) == 0)
        }
        #expect(chmod(running.folder.socketPath, 0o666) == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/perl", "-MIO::Socket::UNIX", "-e",
                             "$SIG{PIPE} = 'IGNORE'; my $s = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Peer => $ARGV[0]) or die \"connect: $!\\n\"; "
                             + "print $s qq({\"v\":1,\"id\":1,\"type\":\"status\"}\\n); print scalar <$s>;",
                             running.folder.socketPath]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        let response = try ControlCodec.decodeResponse(Array(text.utf8.filter { $0 != UInt8(ascii: "\n") }))
        #expect(response.reply == .runtime("permission denied: this session belongs to uid 0 and you are uid 65534; run rec as that user"))
        #expect(running.handler.seen.withLock { $0.isEmpty })
    }
}
