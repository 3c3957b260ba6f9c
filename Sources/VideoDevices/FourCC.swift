import CV4L2

/// A V4L2 pixel format code (`V4L2_PIX_FMT_*`), four ASCII characters packed little-endian.
public struct FourCC: Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// "YUYV", "MJPG", "NV12": the four characters; nil unless exactly four ASCII characters.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) else { return nil }
        rawValue = bytes.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    public static let yuyv = FourCC(rawValue: CV4L2_PIX_FMT_YUYV)
    public static let uyvy = FourCC(rawValue: CV4L2_PIX_FMT_UYVY)
    public static let nv12 = FourCC(rawValue: CV4L2_PIX_FMT_NV12)
    public static let yuv420 = FourCC(rawValue: CV4L2_PIX_FMT_YUV420)
    public static let mjpeg = FourCC(rawValue: CV4L2_PIX_FMT_MJPEG)
    public static let jpeg = FourCC(rawValue: CV4L2_PIX_FMT_JPEG)
    public static let h264 = FourCC(rawValue: CV4L2_PIX_FMT_H264)

    /// Raw formats rec copies straight into a frame, in order of preference.
    package static let raw: [FourCC] = [.nv12, .yuyv]
    /// JPEG-compressed formats rec decodes with libavcodec.
    package static let compressed: [FourCC] = [.mjpeg, .jpeg]

    package var isRaw: Bool { FourCC.raw.contains(self) }
    package var isJPEG: Bool { FourCC.compressed.contains(self) }
    package var isSupported: Bool { isRaw || isJPEG }
    /// Whether rec can record this format (for callers outside Capture).
    public var isReadable: Bool { isSupported }

    /// The four characters, trailing spaces trimmed ("MJPG", "YUYV").
    public var description: String {
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
