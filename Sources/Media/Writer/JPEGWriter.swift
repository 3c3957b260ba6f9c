import CFFmpeg
import Foundation
import RecCore

/// Writes one frame as a JPEG file with libavcodec's MJPEG encoder (`rec snapshot`).
package enum JPEGWriter {
    /// Encodes `frame` (any format; converted to full-range 4:2:0) at quality `qscale` (2 best …
    /// 31 worst) into `path`, through a temporary file renamed into place.
    @discardableResult
    package static func write(_ frame: VideoFrame, to path: String, qscale: Double = 2) throws(FFmpegError) -> Int {
        let data = try encode(frame, qscale: qscale)
        let temporary = OutputPath.temporarySibling(of: path)
        guard FileManager.default.createFile(atPath: temporary, contents: Data(data)) else {
            throw FFmpegError(code: -errno, operation: "create \(temporary)")
        }
        guard rename(temporary, path) == 0 else {
            let e = errno
            unlink(temporary)
            throw FFmpegError(code: -e, operation: "rename \(temporary)")
        }
        return data.count
    }

    /// The JPEG bytes of `frame`, scaled to `width` (height in proportion, even) when given:
    /// the live page's snapshots and timeline thumbnails.
    package static func encode(_ frame: VideoFrame, width: Int? = nil, qscale: Double = 2) throws(FFmpegError) -> [UInt8] {
        let w = width.map { min($0, frame.format.width) & ~1 } ?? frame.format.width
        let h = width == nil ? frame.format.height : max(2, (frame.format.height * w / max(1, frame.format.width)) & ~1)
        let format = VideoFormat(width: w, height: h, pixelFormat: .yuvj420p)
        let settings = EncoderSettings(encoder: "mjpeg", width: format.width, height: format.height,
                                       pixelFormat: .yuvj420p, timeBase: Rational(1, 1), frameRate: Rational(1, 1),
                                       keyframeInterval: 1, rateControl: .qscale(qscale), globalHeader: false, threads: 1)
        let encoder = try VideoEncoder(settings)
        let picture = frame.format == format ? frame : try Scaler(from: frame.format, to: format).scale(frame)
        try encoder.send(picture, pts: 0)
        try encoder.sendEnd()
        guard case .output(let packet) = try encoder.receive() else {
            throw FFmpegError(code: cffmpeg_averror(EINVAL), operation: "mjpeg produced no picture")
        }
        return packet.data
    }
}
