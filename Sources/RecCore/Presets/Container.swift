/// A file format a preset records into, and which codec families it can hold.
package enum Container: String, Sendable, CaseIterable, Equatable {
    case mp4, mov, mkv, webm

    /// The codec families (FFmpeg codec names, as `avcodec_get_name` gives them) this container
    /// holds, or nil when it holds any. Checked against FFmpeg 5.1's muxers: mp4 refuses vp8,
    /// ffv1 and prores; mov refuses vp8, vp9 and av1; webm takes only vp8, vp9 and av1.
    package var codecFamilies: [String]? {
        switch self {
        case .mp4: ["h264", "hevc", "av1", "vp9", "mpeg4", "mjpeg"]
        case .mov: ["h264", "hevc", "mjpeg", "mpeg4", "prores", "ffv1", "dnxhd", "png", "qtrle"]
        case .mkv: nil
        case .webm: ["vp8", "vp9", "av1"]
        }
    }

    /// The audio codec families this container holds as rec writes them, or nil when it holds any
    /// rec records. Checked against FFmpeg 5.1's muxers: mp4 takes aac and opus (flac only with
    /// `-strict experimental`, PCM not at all); mov takes aac and PCM (it refuses opus and flac,
    /// "only supported in MP4"); webm only opus and vorbis.
    package var audioFamilies: [String]? {
        switch self {
        case .mp4: ["aac", "opus"]
        case .mov: ["aac", "pcm_s16le", "pcm_s24le"]
        case .mkv: nil
        case .webm: ["opus", "vorbis"]
        }
    }

    /// Why this container cannot take an audio encoder's codec family, with what to write
    /// instead; nil when it can.
    package func audioRefusal(of family: String, encoder: String) -> String? {
        guard !(audioFamilies?.contains(family) ?? true) else { return nil }
        if self == .mp4 && family == "flac" {
            return "FFmpeg 5.1 writes FLAC into mp4 only as an experimental feature, which rec does not turn on; use container \"mkv\" for FLAC, or \"audio\": \"aac\""
        }
        let fits = Container.allCases.filter { $0.audioFamilies?.contains(family) ?? true }.map { "\"\($0.rawValue)\"" }
        let instead = PresetAudio.names.first { audioFamilies?.contains(PresetAudio.families[$0] ?? "") ?? true } ?? "none"
        return "\(rawValue) cannot hold \(family) sound (audio \(encoder)); use \"audio\": \"\(instead)\", or container \(fits.joined(separator: " or "))"
    }

    /// The file name extension FFmpeg knows the format by.
    package var fileExtension: String { rawValue }

    /// The libavformat muxer name (`av_guess_format`'s short name).
    package var muxerName: String {
        switch self {
        case .mp4: "mp4"
        case .mov: "mov"
        case .mkv: "matroska"
        case .webm: "webm"
        }
    }

    /// Whether the container can hold the codec family.
    package func holds(_ family: String) -> Bool { codecFamilies?.contains(family) ?? true }

    /// Why this container cannot take an encoder's codec family, with the containers that can;
    /// nil when it can. Shared by RecCore's check and Media's `EncoderCatalog`.
    package func refusal(of family: String, encoder: String) -> String? {
        guard !holds(family) else { return nil }
        let fits = Container.holding(family).map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        return "\(rawValue) cannot hold \(family) (encoder \(encoder)); use container \(fits)"
    }

    /// The containers that can hold a codec family, for "try container X" advice.
    package static func holding(_ family: String) -> [Container] { allCases.filter { $0.holds(family) } }
}
