import CFFmpeg
import RecCore

/// The video encoders this FFmpeg offers, and the checks on a preset that only the installed
/// FFmpeg can make: that the encoder exists and is video, that the container holds its codec,
/// that it takes the pixel format, that it has every option the preset sets, and that the sound
/// encoder takes the preset's rate and bitrate (EncoderCatalog+Audio.swift).
package enum EncoderCatalog {
    /// The names of every video encoder, sorted. The corresponding C functions are
    /// `av_codec_iterate` and `av_codec_is_encoder`.
    package static func videoEncoderNames() -> [String] {
        var names: [String] = []
        var state: UnsafeMutableRawPointer?
        while let codec = av_codec_iterate(&state) {
            if av_codec_is_encoder(codec) != 0, codec.pointee.type == AVMEDIA_TYPE_VIDEO {
                names.append(String(cString: codec.pointee.name))
            }
        }
        return names.sorted()
    }

    /// Whether a video encoder of this name exists; `avcodec_find_encoder_by_name`.
    package static func hasVideoEncoder(_ name: String) -> Bool {
        avcodec_find_encoder_by_name(name)?.pointee.type == AVMEDIA_TYPE_VIDEO
    }

    /// The codec family of an encoder ("libx264" → "h264"), as `avcodec_get_name` names its codec.
    package static func codecFamily(of encoder: String) -> String? {
        guard let codec = avcodec_find_encoder_by_name(encoder) else { return nil }
        return String(cString: avcodec_get_name(codec.pointee.id))
    }

    /// The pixel formats an encoder takes (`AVCodec.pix_fmts`), in its order of preference;
    /// empty when it does not say, nil when there is no such encoder.
    package static func pixelFormats(of encoder: String) -> [String]? {
        guard let codec = avcodec_find_encoder_by_name(encoder) else { return nil }
        guard var p = codec.pointee.pix_fmts else { return [] }
        var names: [String] = []
        while p.pointee != AV_PIX_FMT_NONE {
            names.append(PixelFormat(p.pointee).name)
            p += 1
        }
        return names
    }

    /// Checks a parsed preset against this FFmpeg, its sound included (`validateAudio`). `origin`
    /// (a path or "built-in") goes into the message and the error's location. Throws
    /// `RecError.usage` saying what to change.
    package static func validate(_ preset: Preset, origin: String = "built-in") throws(RecError) {
        let subject = "preset '\(preset.name)' (\(origin))"
        func fail(_ message: String) -> RecError { .usage("\(subject): \(message)", location: origin) }
        try validateAudio(preset, fail: fail)
        guard !preset.isCopy else { return }
        guard let codec = avcodec_find_encoder_by_name(preset.encoder) else {
            throw fail("unknown encoder '\(preset.encoder)'; \(suggestion(for: preset.encoder))")
        }
        guard codec.pointee.type == AVMEDIA_TYPE_VIDEO else {
            throw fail("'\(preset.encoder)' is not a video encoder; \(suggestion(for: preset.encoder))")
        }
        let family = String(cString: avcodec_get_name(codec.pointee.id))
        if let refusal = preset.container.refusal(of: family, encoder: preset.encoder) { throw fail(refusal) }
        if let name = preset.pixelFormat {
            guard PixelFormat(name: name) != nil else {
                throw fail("unknown pixel format '\(name)'; `ffmpeg -pix_fmts` lists them")
            }
            let takes = pixelFormats(of: preset.encoder) ?? []
            // A VAAPI encoder takes only GPU frames; the preset names the format uploaded from.
            let uploads = HardwareAPI.required(by: preset.encoder) == .vaapi && ["nv12", "p010le"].contains(name)
            guard takes.isEmpty || takes.contains(name) || uploads else {
                throw fail("\(preset.encoder) cannot take pixel format '\(name)'; it takes \(takes.joined(separator: ", "))")
            }
        }
        try checkOptions(preset, codec: codec, fail: fail)
    }

    /// Sets every codec option on a scratch context (`avcodec_alloc_context3`, `av_opt_find`,
    /// `av_opt_set` with `AV_OPT_SEARCH_CHILDREN`, so the encoder's private options count).
    private static func checkOptions(_ preset: Preset, codec: UnsafePointer<AVCodec>,
                                     fail: (String) -> RecError) throws(RecError) {
        var context: UnsafeMutablePointer<AVCodecContext>? = avcodec_alloc_context3(codec)
        guard context != nil else { throw RecError.runtime("out of memory while checking preset '\(preset.name)'") }
        defer { avcodec_free_context(&context) }
        let search = Int32(AV_OPT_SEARCH_CHILDREN)
        for (key, value) in EncoderSettings(preset: preset).codecOptions {
            guard av_opt_find(context, key, nil, 0, search) != nil else {
                throw fail("\(preset.encoder) has no option '\(key)'\(optionAdvice(key)); `ffmpeg -h encoder=\(preset.encoder)` lists its options")
            }
            let result = av_opt_set(context, key, value, search)
            guard result >= 0 else {
                let error = FFmpegError(code: result, operation: "av_opt_set")
                throw fail("\(preset.encoder) rejects \(key)=\(value) (\(error.text)); `ffmpeg -h encoder=\(preset.encoder)` shows what it takes")
            }
        }
    }

    /// Where a preset key became an option the encoder lacks, which key to change.
    private static func optionAdvice(_ key: String) -> String {
        switch key {
        case "preset": " (remove \"preset\" or set the encoder's own speed option in \"options\")"
        case "tune": " (remove \"tune\")"
        case "crf": " (use \"bitrate\" instead of \"crf\")"
        case "global_quality", "flags": " (use \"bitrate\" instead of \"qscale\")"
        default: ""
        }
    }

    /// "did you mean 'libx265'? this FFmpeg offers libx264, libx265, … (`ffmpeg -encoders` lists all N)".
    private static func suggestion(for name: String) -> String {
        let all = videoEncoderNames()
        let close = all.first { $0 == "lib" + name } ?? all.first { $0.hasPrefix("lib\(name)") || $0.hasPrefix(name) }
        let hint = close.map { "did you mean '\($0)'? " } ?? ""
        let common = ["libx264", "libx265", "libvpx-vp9", "libvpx", "libsvtav1", "libaom-av1", "ffv1", "mjpeg", "mpeg4"]
            .filter(all.contains)
        return "\(hint)this FFmpeg offers \(common.joined(separator: ", ")) and \(all.count - common.count) more (`ffmpeg -encoders` lists them)"
    }
}
