import CFFmpeg
import RecCore

/// A raw picture format: size and FFmpeg pixel format.
package struct VideoFormat: Hashable, Sendable, CustomStringConvertible {
    package var width: Int
    package var height: Int
    /// The FFmpeg pixel format (`AVPixelFormat`'s raw value).
    package var pixelFormat: PixelFormat

    package init(width: Int, height: Int, pixelFormat: PixelFormat) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
    }

    package var description: String { "\(width)x\(height) \(pixelFormat)" }

    /// Bytes of one picture in this format (0 if unknown). The corresponding C function is
    /// `av_image_get_buffer_size`.
    package var pictureBytes: Int {
        max(0, Int(av_image_get_buffer_size(pixelFormat.av, Int32(width), Int32(height), 1)))
    }
}

/// An FFmpeg pixel format by value, so that Sendable types can hold it.
package struct PixelFormat: Hashable, Sendable, CustomStringConvertible {
    package var rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }
    init(_ f: AVPixelFormat) { self.rawValue = f.rawValue }
    var av: AVPixelFormat { AVPixelFormat(rawValue: rawValue) }

    /// Looks a format up by FFmpeg's name ("yuv420p", "nv12", "yuyv422"); the corresponding C
    /// function is `av_get_pix_fmt`.
    package init?(name: String) {
        let f = av_get_pix_fmt(name)
        guard f != AV_PIX_FMT_NONE else { return nil }
        self.rawValue = f.rawValue
    }

    package static let yuv420p = PixelFormat(AV_PIX_FMT_YUV420P)
    package static let yuvj420p = PixelFormat(AV_PIX_FMT_YUVJ420P)
    package static let yuvj422p = PixelFormat(AV_PIX_FMT_YUVJ422P)
    package static let yuyv422 = PixelFormat(AV_PIX_FMT_YUYV422)
    package static let nv12 = PixelFormat(AV_PIX_FMT_NV12)
    package static let rgb24 = PixelFormat(AV_PIX_FMT_RGB24)
    package static let none = PixelFormat(AV_PIX_FMT_NONE)

    /// FFmpeg's name for the format; the corresponding C function is `av_get_pix_fmt_name`.
    package var name: String {
        guard let c = av_get_pix_fmt_name(av) else { return "none" }
        return String(cString: c)
    }

    package var description: String { name }
}
