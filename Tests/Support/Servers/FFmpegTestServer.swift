import Foundation

/// The ffmpeg command line serving a stand-in camera on 127.0.0.1 over RTMP, SRT or HTTP, as its
/// own listener (`-listen 1` or SRT's listener mode). ffmpeg serves one client and exits when that
/// client leaves: `restart()` serves the next on the same port.
///
/// The picture and sound are rtsp-server.py's (see its header), made by lavfi: grey, a moving
/// bar, the 16-block frame counter in the top-left corner, the second mark in the bottom-left
/// (white on frames 0, 30, 60, ...) and the 440 Hz tone with a click at each whole second; 30 fps,
/// H.264 (an IDR a second, no B-frames) and AAC, or MJPEG alone. `-re` paces them in real time
/// from frame 0 when the client connects.
public final class FFmpegTestServer: TestServer {
    public enum Kind: String, CaseIterable, Sendable {
        /// FLV over RTMP: H.264 and AAC.
        case rtmp
        /// MPEG-TS over SRT (listener): H.264 and AAC.
        case srt
        /// Multipart JPEG over HTTP (`mpjpeg`): MJPEG, no sound.
        case httpMJPEG
        /// MPEG-TS over HTTP: H.264 and AAC.
        case httpMPEGTS

        /// ffprobe's `codec_name`s, picture first.
        public var codecs: [String] { self == .httpMJPEG ? ["mjpeg"] : ["h264", "aac"] }

        var udp: Bool { self == .srt }
    }

    public let kind: Kind
    public let size: String
    public let rate: Int?
    public private(set) var process: ServerProcess
    public private(set) var port: Int

    /// Starts ffmpeg and returns once it listens (its socket is bound, as /proc shows). With
    /// `rate`, the stream sends that many pictures a second (every other picture at 15: the
    /// counters step by 2) instead of the picture's 30.
    public init(_ kind: Kind, size: String = "160x90", port: Int? = nil, rate: Int? = nil) throws {
        self.kind = kind
        self.size = size
        self.rate = rate
        var attempt = 0
        while true {
            let chosen = try port ?? LoopbackPort.free(udp: kind.udp)
            do {
                process = try Self.launch(kind, size: size, port: chosen, rate: rate)
                self.port = chosen
                return
            } catch let failure as ServerFailure where port == nil && attempt < 3 && failure.description.contains("in use") {
                attempt += 1     // another process took the free port first
            }
        }
    }

    public func restart() throws {
        process.stop()
        process = try Self.launch(kind, size: size, port: port, rate: rate)
    }

    /// The URL a client opens.
    public var url: String {
        switch kind {
        case .rtmp: "rtmp://127.0.0.1:\(port)/live/cam"
        case .srt: "srt://127.0.0.1:\(port)?mode=caller"
        case .httpMJPEG: "http://127.0.0.1:\(port)/cam.mjpg"
        case .httpMPEGTS: "http://127.0.0.1:\(port)/cam.ts"
        }
    }

    private static func launch(_ kind: Kind, size: String, port: Int, rate: Int?) throws -> ServerProcess {
        let parts = size.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] >= 128, parts[1] >= 64, parts[0] % 2 == 0, parts[1] % 2 == 0 else {
            throw ServerFailure("size \(size): width and height must be even and at least 128x64")
        }
        var arguments = ["-nostdin", "-nostats", "-hide_banner", "-loglevel", "warning", "-re",
                         "-f", "lavfi", "-i", picture(width: parts[0], height: parts[1])]
        if let rate { arguments += ["-r", "\(rate)"] }
        let h264 = ["-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-keyint_min", "30", "-sc_threshold", "0",
                    "-bf", "0", "-pix_fmt", "yuv420p"]
        let aac = ["-c:a", "aac", "-b:a", "64k"]
        switch kind {
        case .rtmp:
            arguments += sound + h264 + aac + ["-f", "flv", "-listen", "1", "rtmp://127.0.0.1:\(port)/live/cam"]
        case .srt:
            arguments += sound + h264 + aac + ["-f", "mpegts", "srt://127.0.0.1:\(port)?mode=listener"]
        case .httpMJPEG:
            arguments += ["-c:v", "mjpeg", "-q:v", "5", "-pix_fmt", "yuvj420p", "-f", "mpjpeg", "-listen", "1",
                          "http://127.0.0.1:\(port)/cam.mjpg"]
        case .httpMPEGTS:
            arguments += sound + h264 + aac + ["-f", "mpegts", "-listen", "1", "http://127.0.0.1:\(port)/cam.ts"]
        }
        let process = try ServerProcess("/usr/bin/ffmpeg", arguments)
        try LoopbackPort.waitUntilListening(port, udp: kind.udp, process: process, name: "ffmpeg")
        return process
    }

    static let sound = ["-f", "lavfi", "-i",
                                "aevalsrc=exprs='0.1*sin(2*PI*440*n/48000)+if(lt(mod(n\\,48000)\\,48)\\,0.8\\,"
                                    + "if(lt(mod(n\\,48000)\\,96)\\,-0.8\\,0))':s=48000"]

    /// rtsp-server.py's picture as a lavfi graph.
    static func picture(width: Int, height: Int) -> String {
        let block = max(8, (width / 32) & ~7)
        let mark = (width: (width / 8) & ~1, height: (height / 8) & ~1)
        func box(_ x: Int, _ y: Int, _ w: Int, _ h: Int, _ color: String, when: String? = nil) -> String {
            "drawbox=x=\(x):y=\(y):w=\(w):h=\(h):color=\(color):t=fill" + (when.map { ":enable='\($0)'" } ?? "")
        }
        var filters = ["[bg][bar]overlay=x='mod(4*n\\,W-8)':y=0:eval=frame", "format=yuv420p",
                       box(0, 0, 16 * block, block, "black")]
        for bit in 0..<16 {
            filters.append(box(bit * block, 0, block, block, "white", when: "eq(mod(floor(n/\(1 << bit))\\,2)\\,1)"))
        }
        let markY = height - mark.height
        filters.append(box(0, markY, mark.width, mark.height, "black"))
        filters.append(box(0, markY, mark.width, mark.height, "white", when: "eq(mod(n\\,30)\\,0)"))
        return "color=c=0x808080:s=\(width)x\(height):r=30[bg];color=c=white:s=8x\(height):r=30[bar];"
            + filters.joined(separator: ",") + "[out0]"
    }
}
