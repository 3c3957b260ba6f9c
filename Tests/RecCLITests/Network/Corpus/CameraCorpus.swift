import Foundation
import Testing
import TestServers

/// Issue 39's corpus: stand-in cameras served by software nobody here wrote, one row per server
/// and stream shape, each run through the same checks (`CameraCorpusTests`). A camera a user
/// reports that records wrongly becomes one more row. Every row carries the stand-in picture (the
/// frame counter of rtsp-server.py's header) at 160x96: RTP/JPEG gives sizes in 8-pixel units.
struct Camera: Sendable, CustomTestStringConvertible {
    enum Server: Sendable {
        /// gst-rtsp-server (Tests/Support/rtsp/rtsp-server.py), one of its mounts.
        case gstreamer(RTSPTestServer.Mount)
        /// VLC's RTSP server serving a stand-in file as it is (over UDP, VLC's only RTP transport).
        case vlc(StandInMedia.Kind)
        /// nginx's RTMP module relaying ffmpeg's `-c copy` publish of the stand-in FLV.
        case nginxRTMP
        /// ffmpeg's SRT listener sending the stand-in MPEG-TS with `-c copy`.
        case ffmpegSRT
        /// The tests' own multipart MJPEG server, 15 pictures a second, untimed.
        case httpMJPEG
    }

    let name: String
    let server: Server
    /// ffprobe's names of the sound streams the camera sends, in order (as a Matroska recording keeps them).
    let sound: [String]
    var fps = 30
    /// Seconds between keyframes: the ring keeps whole groups, so it may hold up to one more than asked.
    var keyframeSeconds = 1.0
    /// A stream with no times (multipart MJPEG): rec times it by arrival, so frame times follow the
    /// counter on the whole (the rate) rather than frame by frame.
    var timedByArrival = false

    /// Why rec does not pass this row yet (an open defect of rec's, reported in docs/CAMERAS.md):
    /// such a row runs only with REC_CORPUS_OPEN=1.
    var open: String?

    var testDescription: String { name }

    /// The rows the default run records: every row rec passes; with REC_CORPUS_OPEN=1, all. With
    /// REC_CORPUS_ROWS=a,b, only the rows whose names contain one of those (to run a row again).
    static var tested: [Camera] {
        let environment = ProcessInfo.processInfo.environment
        let rows = environment["REC_CORPUS_OPEN"] == "1" ? all : all.filter { $0.open == nil }
        guard let names = environment["REC_CORPUS_ROWS"]?.split(separator: ",") else { return rows }
        return rows.filter { row in names.contains { row.name.contains($0) } }
    }

    static let width = 160, height = 96
    static let size = "\(width)x\(height)"

    static func gst(_ mount: RTSPTestServer.Mount, _ name: String) -> Camera {
        Camera(name: "gst-rtsp-server \(mount.rawValue): \(name)", server: .gstreamer(mount), sound: mount.audioCodecs,
               keyframeSeconds: Double(mount.keyframeInterval) / 30)
    }

    static let all: [Camera] = [
        gst(.h264, "x264, SPS/PPS with every IDR (config-interval=-1), AAC"),
        gst(.h264SDPOnly, "x264, SPS/PPS only in the SDP (config-interval=0), AAC"),
        gst(.h264Sliced, "x264 zerolatency, 2 slices a picture, SPS/PPS between them, 2 s GOP, AAC"),
        gst(.h264AUDSEI, "x264 with AUD and picture-timing SEI before every picture, AAC"),
        gst(.h264Baseline, "x264 constrained baseline, AAC"),
        // The B-frame rows lost the B-frames before the recording's last picture under load (218,
        // 222): a stop between two pictures of a run the gate let out (StopWholeRunTests).
        gst(.h264Main, "x264 main, 2 B-frames, AAC"),
        gst(.h264High, "x264 high, 3 B-frames with pyramid, AAC"),
        gst(.longGOP, "x264, 4 s GOP, AAC"),
        gst(.h265, "x265, no B-frames, VPS/SPS/PPS with every IDR, AAC"),
        Camera(name: "gst-rtsp-server /h265-bframes: x265, 3 B-frames, 2 s GOP, VPS/SPS/PPS with every IDR, AAC",
               server: .gstreamer(.h265BFrames), sound: RTSPTestServer.Mount.h265BFrames.audioCodecs, keyframeSeconds: 2),
        gst(.mjpeg, "MJPEG over RTP (RFC 2435), G.711 µ-law"),
        gst(.pcma, "x264, G.711 A-law"),
        gst(.pcmu, "x264, G.711 µ-law"),
        gst(.opus, "x264, Opus"),
        gst(.twoSounds, "x264, two sound streams (AAC and Opus)"),
        // Open until its frame times were held to 3 ms over a 20 s run, less than the 500 ppm the
        // timeline may slew (10 ms at 20 s): a CI run under load saw them stray further.
        Camera(name: "VLC RTSP (UDP): H.264 + AAC MP4 file as it is", server: .vlc(.h264MP4), sound: ["aac"]),
        Camera(name: "VLC RTSP (UDP): H.265 (3 B-frames) + AAC MP4 file as it is", server: .vlc(.h265MP4), sound: ["aac"],
               open: "VLC 3.0's own RTP times are wrong: in ffmpeg's own copy five pictures share one time at 4.4 s and "
                   + "every picture after comes 5 frames earlier than before; in rec's, 2 frames early against the sound"),
        Camera(name: "nginx RTMP relay of ffmpeg's -c copy publish: H.264 + AAC", server: .nginxRTMP, sound: ["aac"]),
        Camera(name: "ffmpeg SRT listener, -c copy MPEG-TS: H.264 + AAC", server: .ffmpegSRT, sound: ["aac"]),
        Camera(name: "HTTP multipart MJPEG, 15 pictures a second, no times", server: .httpMJPEG, sound: [], fps: 15,
               keyframeSeconds: 1.0 / 15, timedByArrival: true),
    ]

    /// Starts the row's server (and what feeds it) on loopback; the server lives as long as the
    /// returned object, which the test drops when its session has stopped.
    func serve() throws -> (server: any TestServer, url: String) {
        switch server {
        case .gstreamer(let mount):
            let server = try RTSPTestServer(.init(size: Self.size))
            return (server, server.url(mount))
        case .vlc(let kind):
            let server = try VLCTestServer(file: try StandInMedia.path(kind, size: Self.size))
            return (server, server.url)
        case .nginxRTMP:
            let server = try NginxRTMPTestServer(file: try StandInMedia.path(.h264FLV, size: Self.size))
            return (server, server.url)
        case .ffmpegSRT:
            let server = try SRTTestServer(file: try StandInMedia.path(.h264TS, size: Self.size))
            return (server, server.url)
        case .httpMJPEG:
            let server = try MJPEGTestServer(folder: try StandInMedia.path(.jpegFolder, size: Self.size), fps: fps)
            return (server, server.url)
        }
    }
}
