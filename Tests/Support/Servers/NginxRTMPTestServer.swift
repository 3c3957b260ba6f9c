import Foundation

/// nginx with Debian's RTMP module (`libnginx-mod-rtmp`) relaying a stand-in file that ffmpeg
/// publishes to it as it is (`-re -stream_loop -1 … -c copy -f flv`), as RTMP cameras publish to
/// a relay that clients then read. nginx runs in the foreground with no worker processes, its
/// files in a folder of its own; `process` is nginx, `publisher` the ffmpeg feeding it.
///
/// The relay sends a client the stream from where it is (nginx-rtmp's defaults: no waiting for a
/// keyframe, the codecs' headers first), as relays do.
public final class NginxRTMPTestServer: TestServer {
    public let file: String
    public private(set) var process: ServerProcess
    public private(set) var publisher: ServerProcess
    public private(set) var port: Int
    private let folder: String

    /// Starts nginx on a free port, then the publisher, and returns once ffmpeg has published
    /// (its first progress report comes after the FLV header went to nginx).
    public init(file: String) throws {
        self.file = file
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rec-nginx-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let folder = folder
        (process, port) = try LoopbackPort.launching { try Self.relay(folder: folder, port: $0) }
        publisher = try Self.publish(file, port: port)
    }

    deinit {
        publisher.kill()
        process.kill()
        try? FileManager.default.removeItem(atPath: folder)
    }

    public func restart() throws {
        publisher.stop()
        process.stop()
        process = try Self.relay(folder: folder, port: port)
        publisher = try Self.publish(file, port: port)
    }

    public var url: String { "rtmp://127.0.0.1:\(port)/live/cam" }

    private static func relay(folder: String, port: Int) throws -> ServerProcess {
        let configuration = """
            load_module /usr/lib/nginx/modules/ngx_rtmp_module.so;
            daemon off;
            master_process off;
            pid \(folder)/nginx.pid;
            error_log stderr warn;
            events { worker_connections 64; }
            rtmp { server { listen 127.0.0.1:\(port); application live { live on; } } }

            """
        try configuration.write(toFile: folder + "/nginx.conf", atomically: true, encoding: .utf8)
        // -e: the log before the configuration is read, else /var/log/nginx/error.log.
        let process = try ServerProcess("/usr/sbin/nginx", ["-p", folder, "-c", folder + "/nginx.conf", "-e", "stderr"])
        try LoopbackPort.waitUntilListening(port, process: process, name: "nginx")
        return process
    }

    private static func publish(_ file: String, port: Int) throws -> ServerProcess {
        // One progress report, the first (its output closes once read): no later write meets a closed socket.
        let arguments = ["-nostdin", "-v", "error", "-progress", "pipe:1", "-stats_period", "100000", "-re", "-stream_loop", "-1", "-i", file,
                         "-c", "copy", "-f", "flv", "rtmp://127.0.0.1:\(port)/live/cam"]
        return try ServerProcess.announcing("/usr/bin/ffmpeg", arguments, timeout: .seconds(30)) { $0.hasPrefix("frame=") }.0
    }
}
