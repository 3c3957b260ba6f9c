import Foundation
import Synchronization

/// Files of the stand-in camera's picture and sound (rtsp-server.py's: the frame counter, the
/// second's flash and click; `FFmpegTestServer.picture`), made once by ffmpeg's encoders for the
/// servers that serve files as they are (VLC, an RTMP publisher, SRT), never re-encoded while
/// served. Each is a minute long, longer than a test's session; the servers loop it all the same.
///
/// They are kept in one folder under the temporary directory, named by what they hold (size and
/// `version`), so every test process after the first finds them made; a file appears whole or
/// not at all (written beside, then renamed), and everyone may read it (VLC runs as another user).
public enum StandInMedia {
    public enum Kind: String, CaseIterable, Sendable {
        /// H.264 (x264, an IDR a second, no B-frames) and AAC in MP4.
        case h264MP4 = "h264.mp4"
        /// H.265 (x265, 3 B-frames, an IDR a second) and AAC in MP4 (`hvc1`).
        case h265MP4 = "h265.mp4"
        /// H.264 and AAC in FLV, for an RTMP publisher.
        case h264FLV = "h264.flv"
        /// H.264 and AAC in MPEG-TS, for SRT.
        case h264TS = "h264.ts"
        /// A folder of JPEGs, one per frame from 0, for the HTTP MJPEG server (`00000.jpg` …).
        case jpegFolder = "jpeg"
    }

    /// Changes whenever what a kind holds changes, so old files are not served.
    static let version = 1
    public static let seconds = 60
    /// Pictures in the JPEG folder (40 s at 15 a second).
    public static let jpegCount = 600

    private static let lock = Mutex(())

    /// The file (or folder) of `kind` at `size` (`WxH`), made if it is not there yet.
    public static func path(_ kind: Kind, size: String = "160x96") throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rec-standin-media-v\(version)-\(size)").path
        let path = folder + "/" + kind.rawValue
        return try lock.withLock { _ in
            if FileManager.default.fileExists(atPath: path) { return path }
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
            let partial = folder + "/.partial-\(UUID())-" + kind.rawValue
            defer { try? FileManager.default.removeItem(atPath: partial) }
            try make(kind, size: size, at: partial)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: partial)
            try FileManager.default.moveItem(atPath: partial, toPath: path)
            return path
        }
    }

    private static func make(_ kind: Kind, size: String, at path: String) throws {
        let parts = size.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2 else { throw ServerFailure("size \(size) is not WxH") }
        let picture = ["-f", "lavfi", "-i", FFmpegTestServer.picture(width: parts[0], height: parts[1])]
        var arguments = ["-nostdin", "-v", "error", "-y"] + picture
        let aac = ["-c:a", "aac", "-b:a", "64k"]
        switch kind {
        case .h264MP4, .h264FLV, .h264TS:
            arguments += FFmpegTestServer.sound + ["-t", "\(seconds)", "-c:v", "libx264", "-preset", "ultrafast", "-g", "30",
                                                   "-sc_threshold", "0", "-bf", "0", "-pix_fmt", "yuv420p"] + aac
            arguments += kind == .h264TS ? ["-f", "mpegts", path] : kind == .h264FLV ? ["-f", "flv", path] : ["-f", "mp4", path]
        case .h265MP4:
            arguments += FFmpegTestServer.sound + ["-t", "\(seconds)", "-c:v", "libx265", "-preset", "ultrafast",
                                                   "-x265-params", "keyint=30:min-keyint=30:scenecut=0:bframes=3:log-level=error",
                                                   "-tag:v", "hvc1", "-pix_fmt", "yuv420p"] + aac + ["-f", "mp4", path]
        case .jpegFolder:
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            arguments += ["-frames:v", "\(jpegCount)", "-c:v", "mjpeg", "-q:v", "5", "-pix_fmt", "yuvj420p",
                          "-start_number", "0", path + "/%05d.jpg"]
        }
        let ffmpeg = try ServerProcess("/usr/bin/ffmpeg", arguments)
        guard ffmpeg.waitForExit(timeout: .seconds(300)), ffmpeg.status == 0 else {
            ffmpeg.kill()
            throw ServerFailure("ffmpeg could not make the stand-in \(kind.rawValue): \(ffmpeg.logTail())")
        }
    }
}
