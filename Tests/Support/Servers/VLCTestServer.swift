import Foundation
import Glibc

/// VLC's own RTSP server (Debian's `vlc`, 3.0) serving a stand-in file as it is:
/// `vlc -I dummy --loop FILE --sout '#rtp{sdp=rtsp://127.0.0.1:PORT/cam}'`, no transcoding. VLC
/// refuses to run as root, so when the tests do it runs as the ordinary user the SSH and PipeWire
/// tests use (`SSHTestServer.account()`), through `setpriv`, which execs (the process is VLC's
/// own, and the port check reads its sockets). VLC plays the file from its start when it starts,
/// whether anyone watches or not, as a live camera does: a client joins where the stream is.
///
/// Its RTSP server sends RTP over UDP only (SETUP with TCP interleaving gets 461 Unsupported
/// transport), so `url` asks for UDP (`?transport=udp`, which rec takes out of the URL).
public final class VLCTestServer: TestServer {
    public let file: String
    public private(set) var process: ServerProcess
    public private(set) var port: Int
    private let home: String

    /// Starts VLC serving `file` (readable by every user) and returns once its RTSP port listens.
    public init(file: String, port: Int? = nil) throws {
        self.file = file
        let account = try SSHTestServer.account()
        home = FileManager.default.temporaryDirectory.appendingPathComponent("rec-vlc-\(UUID())").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        if getuid() == 0 {
            guard chown(home, account.uid, account.gid) == 0 else { throw ServerFailure("chown \(home) failed") }
        }
        let home = home
        (process, self.port) = try LoopbackPort.launching(port) { try Self.launch(file: file, port: $0, home: home, account: account) }
    }

    deinit { try? FileManager.default.removeItem(atPath: home) }

    public func restart() throws {
        process.stop()
        process = try Self.launch(file: file, port: port, home: home, account: try SSHTestServer.account())
    }

    /// The stream's URL, over UDP (see above).
    public var url: String { "rtsp://127.0.0.1:\(port)/cam?transport=udp" }

    private static func launch(file: String, port: Int, home: String, account: SSHTestServer.Account) throws -> ServerProcess {
        let vlc = ["/usr/bin/env", "-i", "HOME=\(home)", "PATH=/usr/bin:/bin", "LANG=C.UTF-8",
                   "/usr/bin/vlc", "-I", "dummy", "--no-interact", "--loop", file,
                   "--sout", "#rtp{sdp=rtsp://127.0.0.1:\(port)/cam}"]
        let process = getuid() == 0
            ? try ServerProcess("/usr/bin/setpriv", ["--reuid=\(account.uid)", "--regid=\(account.gid)", "--clear-groups"] + vlc)
            : try ServerProcess(vlc[0], Array(vlc.dropFirst()))
        try LoopbackPort.waitUntilListening(port, process: process, name: "vlc")
        return process
    }
}
