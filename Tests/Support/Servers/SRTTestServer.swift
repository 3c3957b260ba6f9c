import Foundation

/// ffmpeg serving a stand-in MPEG-TS file over SRT as it is, as an SRT camera or encoder in
/// listener mode does: `ffmpeg -re -stream_loop -1 -i FILE -c copy -f mpegts
/// 'srt://127.0.0.1:PORT?mode=listener'`. ffmpeg opens its output before it reads, so the file
/// plays from its first frame when the client connects; it serves one client and exits when that
/// client leaves (`restart()` serves the next on the same port).
public final class SRTTestServer: TestServer {
    public let file: String
    public private(set) var process: ServerProcess
    public private(set) var port: Int

    /// Starts ffmpeg and returns once it listens (its UDP socket is bound, as /proc shows).
    public init(file: String) throws {
        self.file = file
        (process, port) = try LoopbackPort.launching(udp: true) { try Self.launch(file, port: $0) }
    }

    public func restart() throws {
        process.stop()
        process = try Self.launch(file, port: port)
    }

    public var url: String { "srt://127.0.0.1:\(port)?mode=caller" }

    private static func launch(_ file: String, port: Int) throws -> ServerProcess {
        let process = try ServerProcess("/usr/bin/ffmpeg", ["-nostdin", "-nostats", "-v", "error", "-re", "-stream_loop", "-1",
                                                            "-i", file, "-c", "copy", "-f", "mpegts",
                                                            "srt://127.0.0.1:\(port)?mode=listener"])
        try LoopbackPort.waitUntilListening(port, udp: true, process: process, name: "ffmpeg (SRT)")
        return process
    }
}
