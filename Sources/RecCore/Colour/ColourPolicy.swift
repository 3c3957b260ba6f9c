/// What colour a recording gets from its source. Pure policy for `EncodingPipeline`.
///
/// Lossless means lossless: a conversion only happens where the encoder cannot take the source's
/// pixels, and then it keeps the source's range, matrix, primaries and transfer unless the target
/// format cannot hold them (RGB has no range or matrix; YUV made from RGB is limited BT.601).
package enum ColourPolicy {
    /// FFmpeg's deprecated full-range "J" formats and the plain format with the same memory layout:
    /// a `yuvj422p` picture is a `yuv422p` picture whose range is full. Encoders such as FFV1 take
    /// no `yuvj*`; relabelling is exact where converting would squeeze 0–255 into 16–235.
    package static let plainFormats: [String: String] = [
        "yuvj420p": "yuv420p", "yuvj422p": "yuv422p", "yuvj444p": "yuv444p",
        "yuvj440p": "yuv440p", "yuvj411p": "yuv411p",
    ]

    /// The plain format for a `yuvj*` one, or nil if `format` is not one of them.
    package static func plainFormat(forJPEG format: String) -> String? { plainFormats[format] }

    /// The description an encoder is opened with and that frames are converted to.
    /// - Parameters:
    ///   - source: what the (filtered) source's frames say.
    ///   - sourceIsRGB, targetIsRGB: whether the source's and the encoder's pixel formats are RGB.
    ///   - sameLayout: whether the encoder takes the source's pixel format as it is (so chroma
    ///     samples stay where they were).
    ///   - forceFullRange: the preset asked for a `yuvj*` format: full range whatever the source.
    package static func target(source: ColourDescription, sourceIsRGB: Bool, targetIsRGB: Bool,
                              sameLayout: Bool, forceFullRange: Bool = false) -> ColourDescription {
        var out = source
        if targetIsRGB {
            out.matrix = ColourDescription.rgbMatrix
            out.range = sourceIsRGB ? source.range : .full
        } else if sourceIsRGB {
            out.matrix = ColourDescription.bt601Matrix
            out.range = .limited
        }
        if forceFullRange && !targetIsRGB { out.range = .full }
        if !sameLayout { out.chromaLocation = 0 }
        return out
    }

    /// Whether frames described by `frame` must go through a converter to become `target`
    /// (same pixel format and size assumed): their ranges differ. Matrices are not converted
    /// between YUV formats (libswscale keeps the numbers); a source's matrix is carried as a tag.
    package static func needsConversion(from frame: ColourDescription, to target: ColourDescription) -> Bool {
        frame.isFullRange != target.isFullRange
    }
}
