import RecCore

/// The encoder that re-encodes a clip's head or tail (or the whole clip with `--reencode`) so it
/// can join packets copied from the source: the same codec family, size and pixel format, high
/// quality, and — for H.264/HEVC — parameter sets in-band, since the copied packets' parameter
/// sets stay in the container header.
public enum ReencodeSettings {
    /// The libavcodec encoder rec uses for a codec, by FFmpeg's codec name.
    public static func encoderName(forCodec codec: String) -> String? {
        switch codec {
        case "h264": "libx264"
        case "hevc": "libx265"
        case "vp9": "libvpx-vp9"
        case "vp8": "libvpx"
        case "av1": "libsvtav1"
        case "mjpeg": "mjpeg"
        case "ffv1": "ffv1"
        default: nil
        }
    }

    /// Settings to re-encode frames of `source` into packets that splice into the copied stream.
    public static func splice(source: CodecParameters) throws(RecError) -> EncoderSettings {
        guard let name = encoderName(forCodec: source.codecName) else {
            throw .usage("rec cannot re-encode \(source.codecName) to make an exact cut; use --keyframe, or cut into MP4/MOV where an edit list makes it exact without re-encoding")
        }
        let inBand = source.codecName == "h264" || source.codecName == "hevc"
        var settings = EncoderSettings(encoder: name, width: source.width, height: source.height,
                                       pixelFormat: source.pixelFormat, timeBase: source.timeBase,
                                       keyframeInterval: 100_000, bFrames: 0, globalHeader: !inBand)
        switch name {
        // A GOP head at most: fast presets at a low CRF keep the few re-encoded frames close to the source.
        case "libx264", "libx265": settings.rateControl = .crf(16); settings.speed = "veryfast"
        case "libvpx-vp9", "libvpx": settings.rateControl = .crf(18); settings.options = ["deadline": "good", "cpu-used": "4"]
        case "libsvtav1": settings.rateControl = .crf(22)
        case "mjpeg": settings.rateControl = .qscale(2)
        // FFV1 keeps its configuration (version, slices, checksums) in the stream header, which a
        // splice keeps: encode as rec's lossless preset does, and ClipJob checks the header matches.
        case "ffv1": settings.options = ["level": "3", "slices": "4", "slicecrc": "1"]
        default: break
        }
        if name == "libx265" { settings.options["x265-params"] = "log-level=error:repeat-headers=1" }
        return settings
    }
}
