import RecCore

/// The encoder that re-encodes a clip's head or tail (or the whole clip with `--reencode`) so it
/// can join packets copied from the source: the same codec family, size and pixel format, high
/// quality, and — for H.264/HEVC — parameter sets in-band, since the copied packets' parameter
/// sets stay in the container header.
package enum ReencodeSettings {
    /// The libavcodec encoder rec uses for a codec, by FFmpeg's codec name.
    package static func encoderName(forCodec codec: String) -> String? {
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
    /// The frames match the source stream's: same profile and level (H.264/HEVC/VP9), bit depth and
    /// chroma format (its pixel format), colour description, sample aspect ratio and frame rate.
    /// H.264 frames get SPS/PPS id 1 so they never replace the source's (id 0 in every encoder
    /// rec knows) in a decoder that has seen both.
    ///
    /// With `session`, the settings rec encoded the source with (a session's ring or file), the
    /// frames are encoded as the rest were: its speed, tune, rate control and options, when it
    /// is the encoder rec splices this codec with (libx264 for H.264, …).
    package static func splice(source: CodecParameters, frameRate: Rational? = nil,
                              like session: EncoderSettings? = nil) throws(RecError) -> EncoderSettings {
        guard let name = encoderName(forCodec: source.codecName) else {
            throw .usage("rec cannot re-encode \(source.codecName) to make an exact cut; use --keyframe, or cut into MP4/MOV where an edit list makes it exact without re-encoding")
        }
        let inBand = source.codec == .h264 || source.codec == .hevc
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
        if let frameRate { settings.frameRate = frameRate }
        // Only the encoder rec knows how to match (SPS id, profile, level): a hardware encoder of
        // the same codec would reuse the source's parameter set ids and break the splice.
        if let session, session.encoder == name {
            settings.rateControl = session.rateControl
            settings.speed = session.speed
            settings.tune = session.tune
            settings.options = session.options.filter { !["g", "bf", "threads", "x264-params", "x265-params"].contains($0.key) }
        }
        // A GOP at most, so one thread and no lookahead: measured at 1080p on 2 cores, x264
        // takes 180 MiB less and half the time with one thread than with its frame threads, and
        // without lookahead (which only plans bits across frames, here a handful) another
        // 30 MiB less and 40 % less time than with 5 frames of it (bench/README.md, trim-long).
        settings.threads = 1
        if settings.encoder == "libx264" { settings.options["rc-lookahead"] = "0" }
        settings.options.merge(matching(source, encoder: settings.encoder)) { _, new in new }
        return settings
    }

    /// AVCodecContext and encoder options that make `encoder`'s output look like `source`.
    static func matching(_ source: CodecParameters, encoder: String) -> [String: String] {
        var out = source.colourOptions
        if let sar = source.sampleAspectRatio { out["aspect"] = "\(sar.num)/\(sar.den)" }
        switch encoder {
        case "libx264":
            if let profile = source.profile.flatMap(h264Profile) { out["profile"] = profile }
            if let level = source.level { out["level"] = "\(level / 10).\(level % 10)" }
            out["x264-params"] = "sps-id=1"
        case "libx265":
            var params = ["log-level=error", "repeat-headers=1"]
            if let level = source.level { params.append("level-idc=\(level / 3)") }
            if let profile = source.profile.flatMap(hevcProfile) { out["profile"] = profile }
            out["x265-params"] = params.joined(separator: ":")
        case "libvpx-vp9":
            if let profile = source.profile { out["profile"] = "\(profile)" }
        default: break
        }
        return out
    }

    /// libx264's name for an H.264 profile number (`FF_PROFILE_H264_*`).
    static func h264Profile(_ profile: Int) -> String? {
        switch profile & 0xFF {
        case 66: "baseline"
        case 77: "main"
        case 100: "high"
        case 110: "high10"
        case 122: "high422"
        case 244: "high444"
        default: nil
        }
    }

    /// libx265's name for an HEVC profile number.
    static func hevcProfile(_ profile: Int) -> String? {
        switch profile {
        case 1: "main"
        case 2: "main10"
        case 3: "mainstillpicture"
        default: nil
        }
    }
}
