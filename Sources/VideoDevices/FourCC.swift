import CV4L2

/// A V4L2 pixel format code (`V4L2_PIX_FMT_*`), four ASCII characters packed little-endian.
package struct FourCC: Hashable, Sendable, CustomStringConvertible {
    package var rawValue: UInt32

    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// "YUYV", "MJPG", "NV12": the four characters; nil unless exactly four ASCII characters.
    package init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) else { return nil }
        rawValue = bytes.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    package static let yuyv = FourCC(rawValue: CV4L2_PIX_FMT_YUYV)
    package static let uyvy = FourCC(rawValue: CV4L2_PIX_FMT_UYVY)
    package static let nv12 = FourCC(rawValue: CV4L2_PIX_FMT_NV12)
    package static let yuv420 = FourCC(rawValue: CV4L2_PIX_FMT_YUV420)
    package static let mjpeg = FourCC(rawValue: CV4L2_PIX_FMT_MJPEG)
    package static let jpeg = FourCC(rawValue: CV4L2_PIX_FMT_JPEG)
    package static let h264 = FourCC(rawValue: CV4L2_PIX_FMT_H264)

    /// Raw formats rec copies straight into a frame, in order of preference.
    package static let raw: [FourCC] = [.nv12, .yuyv]
    /// JPEG-compressed formats rec decodes with libavcodec.
    package static let compressed: [FourCC] = [.mjpeg, .jpeg]

    package var isRaw: Bool { FourCC.raw.contains(self) }
    package var isJPEG: Bool { FourCC.compressed.contains(self) }
    package var isSupported: Bool { isRaw || isJPEG }
    /// Whether rec can record this format (for callers outside Capture).
    package var isReadable: Bool { isSupported }

    /// The four characters, trailing spaces trimmed ("MJPG", "YUYV").
    package var description: String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> (8 * $0)) }
        let text = String(decoding: bytes.map { (0x20..<0x7f).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
        return text.trimmingSuffix(" ")
    }
}

extension String {
    package func trimmingSuffix(_ character: Character) -> String {
        var text = self
        while text.last == character { text.removeLast() }
        return text
    }
}
