import Foundation
import Glibc

/// GStreamer's RTSP server (gst-rtsp-server) serving stand-in cameras on 127.0.0.1, run from
/// `Tests/Support/rtsp/rtsp-server.py`, whose header documents the mounts and the picture and
/// sound every mount carries (a frame counter, a flash and a click each second).
public final class RTSPTestServer: TestServer {
    /// What the server serves and how it asks for credentials.
    public struct Options: Sendable {
        /// The picture size, `WxH` (even, at least 128x64): small, as 2 shared cores want.
        public var size: String
        /// The port; nil picks a free one (the server binds port 0 and says which).
        public var port: Int?
        /// When set, every mount asks for these credentials (401 without them).
        public var credentials: (user: String, password: String)?
        /// Basic or digest authentication, when `credentials` are set.
        public var digest: Bool

        public init(size: String = "160x90", port: Int? = nil, credentials: (user: String, password: String)? = nil,
                    digest: Bool = false) {
            self.size = size
            self.port = port
            self.credentials = credentials
            self.digest = digest
        }
    }

    /// The mount points, with the codecs ffprobe names for them.
    public enum Mount: String, CaseIterable, Sendable {
        case h264 = "/h264"
        case h264BFrames = "/h264-bframes"
        case h265 = "/h265"
        case longGOP = "/long-gop"
        case pcma = "/pcma"
        case pcmu = "/pcmu"
        case opus = "/opus"
        case silent = "/silent"
        case noRTCP = "/no-rtcp"
        case jump = "/jump"
        case jumpBack = "/jump-back"
        case jumpNoRTCP = "/jump-no-rtcp"
        case jumpBackNoRTCP = "/jump-back-no-rtcp"
        case lateKeyframe = "/late-keyframe"
        /// As /h264, one stream shared by every client (the others each get their own from frame 0).
        case h264Shared = "/h264-shared"
        /// x264's zerolatency tune, two slices a picture, parameter sets before every IDR slice:
        /// libavformat hands out each keyframe as two packets of one time.
        case h264Sliced = "/h264-sliced"
        /// As /h264, SPS and PPS only in the SDP, never in the stream.
        case h264SDPOnly = "/h264-sdp-only"
        /// As /h264, an access unit delimiter and a picture timing SEI before every picture.
        case h264AUDSEI = "/h264-aud-sei"
        /// Constrained baseline: CAVLC, no 8x8 transform, no B-frames.
        case h264Baseline = "/h264-baseline"
        /// Main with 2 B-frames, no pyramid.
        case h264Main = "/h264-main"
        /// High with 3 B-frames and a B-pyramid.
        case h264High = "/h264-high"
        /// H.265 with 3 B-frames, an IDR every 2 s, parameter sets with every IDR.
        case h265BFrames = "/h265-bframes"
        /// Motion JPEG over RTP with G.711 µ-law: heights arrive rounded up to a multiple of 8.
        case mjpeg = "/mjpeg"
        /// As /h264 with a second sound stream, Opus, beside the AAC.
        case twoSounds = "/two-sounds"
        /// H.264 without sound, the counter and the second mark but no moving bar: a still scene in
        /// which a square (luma 235) moves on frames 150–239 and 600–629 only (`squareMoves`).
        case motion = "/motion"

        /// ffprobe's `codec_name` for the picture.
        public var videoCodec: String {
            switch self {
            case .h265, .h265BFrames: "hevc"
            case .mjpeg: "mjpeg"
            default: "h264"
            }
        }

        /// ffprobe's `codec_name` for the sound; nil for none.
        public var audioCodec: String? { audioCodecs.first }

        /// ffprobe's `codec_name` for each sound stream, in the SDP's order.
        public var audioCodecs: [String] {
            switch self {
            case .pcma: ["pcm_alaw"]
            case .pcmu, .mjpeg: ["pcm_mulaw"]
            case .opus: ["opus"]
            case .silent, .motion: []
            case .twoSounds: ["aac", "opus"]
            default: ["aac"]
            }
        }

        /// Frames between keyframes (30 fps); 1 for MJPEG, every picture of which is whole.
        public var keyframeInterval: Int {
            switch self {
            case .longGOP: 120
            case .lateKeyframe: 180
            case .h264Sliced, .h265BFrames: 60
            case .mjpeg: 1
            default: 30
            }
        }

        /// The frames of /motion that differ from the frame before in more than the counter and the
        /// second mark: the square moving right, then back left (rtsp-server.py's header).
        public static let squareMoves = [150..<240, 600..<630]

        /// Whether the server sends RTCP sender reports on this mount.
        public var sendsSenderReports: Bool { ![.noRTCP, .jumpNoRTCP, .jumpBackNoRTCP].contains(self) }

        /// How far the RTP timestamps move at 4 s of stream time, in seconds (0: they do not).
        /// libavformat shows the jump until the next sender report, or for good without RTCP.
        public var timestampJump: Double {
            switch self {
            case .jump, .jumpNoRTCP: 20
            case .jumpBack, .jumpBackNoRTCP: -5
            default: 0
            }
        }
    }

    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("rtsp/rtsp-server.py").path
    public static let python = "/usr/bin/python3"

    public let options: Options
    public private(set) var process: ServerProcess
    /// The port it listens on, kept across restarts.
    public private(set) var port: Int

    /// Starts the server and returns once it accepts connections (its READY line).
    public init(_ options: Options = Options()) throws {
        self.options = options
        (process, port) = try Self.launch(options, port: options.port ?? 0)
    }

    public func restart() throws {
        process.stop()
        (process, port) = try Self.launch(options, port: port)
    }

    /// `rtsp://127.0.0.1:PORT/mount`, with the user and password given (percent-encoded) if any.
    public func url(_ mount: Mount, user: String? = nil, password: String? = nil) -> String {
        var authority = ""
        if let user {
            let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? text }
            authority = encode(user) + (password.map { ":" + encode($0) } ?? "") + "@"
        }
        return "rtsp://\(authority)127.0.0.1:\(port)\(mount.rawValue)"
    }

    /// `url(mount)` with the server's own credentials, when it has them.
    public func authorizedURL(_ mount: Mount) -> String {
        url(mount, user: options.credentials?.user, password: options.credentials?.password)
    }

    private static func launch(_ options: Options, port: Int) throws -> (ServerProcess, Int) {
        var arguments = [script, "--port", "\(port)", "--size", options.size, "--parent", "\(getpid())"]
        if let credentials = options.credentials {
            arguments += ["--user", credentials.user, "--password", credentials.password,
                          "--auth", options.digest ? "digest" : "basic"]
        }
        let (process, line) = try ServerProcess.announcing(python, arguments) { _ in true }
        guard line.hasPrefix("READY rtsp://127.0.0.1:"), let bound = line.split(separator: ":").last.flatMap({ Int($0) }) else {
            process.kill()
            throw ServerFailure("rtsp-server.py did not start: \(process.logTail())")
        }
        return (process, bound)
    }
}
