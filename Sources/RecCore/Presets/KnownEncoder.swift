/// What rec knows, without FFmpeg, about a libavcodec encoder: its codec family, the rate
/// controls it takes and its speed/tune vocabulary. Encoders not in the table are checked only
/// by `EncoderCatalog` in Media, against the FFmpeg that is actually installed.
package struct KnownEncoder: Sendable, Equatable {
    package var family: String
    /// The crf range, or nil when the encoder has no crf.
    package var crf: ClosedRange<Double>?
    package var takesBitrate: Bool
    package var takesQscale: Bool
    /// The values its `preset` option accepts, when it is a fixed list.
    package var speeds: [String]?
    /// The values its `tune` option accepts, when it is a fixed list.
    package var tunes: [String]?

    static let x26xSpeeds = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]

    /// The table, by encoder name (`AVCodec.name`).
    package static let table: [String: KnownEncoder] = [
        "libx264": .init(family: "h264", crf: 0...51, takesBitrate: true, takesQscale: false, speeds: x26xSpeeds,
                         tunes: ["film", "animation", "grain", "stillimage", "psnr", "ssim", "fastdecode", "zerolatency"]),
        "libx265": .init(family: "hevc", crf: 0...51, takesBitrate: true, takesQscale: false, speeds: x26xSpeeds,
                         tunes: ["psnr", "ssim", "grain", "zerolatency", "fastdecode", "animation"]),
        "libvpx": .init(family: "vp8", crf: 0...63, takesBitrate: true, takesQscale: false),
        "libvpx-vp9": .init(family: "vp9", crf: 0...63, takesBitrate: true, takesQscale: false),
        "libsvtav1": .init(family: "av1", crf: 0...63, takesBitrate: true, takesQscale: false),
        "libaom-av1": .init(family: "av1", crf: 0...63, takesBitrate: true, takesQscale: false),
        "ffv1": .init(family: "ffv1", crf: nil, takesBitrate: false, takesQscale: false),
        "mjpeg": .init(family: "mjpeg", crf: nil, takesBitrate: true, takesQscale: true),
        "mpeg4": .init(family: "mpeg4", crf: nil, takesBitrate: true, takesQscale: true),
        "copy": .init(family: "mjpeg", crf: nil, takesBitrate: false, takesQscale: false),
    ]

    /// The codec family of an encoder name: from the table, or from a hardware wrapper's prefix
    /// ("h264_vaapi" → "h264"); nil when unknown (Media then asks FFmpeg).
    package static func family(of encoder: String) -> String? {
        if let known = table[encoder] { return known.family }
        let prefix = encoder.split(separator: "_").first.map(String.init) ?? encoder
        let families = ["h264", "hevc", "av1", "vp8", "vp9", "mjpeg", "mpeg4", "mpeg2"]
        return encoder.contains("_") && families.contains(prefix) ? (prefix == "mpeg2" ? "mpeg2video" : prefix) : nil
    }
}
