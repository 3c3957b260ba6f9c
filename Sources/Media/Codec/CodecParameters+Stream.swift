import CFFmpeg
import RecCore

/// What a re-encoder must copy from a stream so its frames match the ones around them: the
/// profile and level, colour description, sample aspect ratio and field order of the source's
/// `AVCodecParameters`.
extension CodecParameters {
    /// FFmpeg's profile number (`FF_PROFILE_*`), nil when unknown.
    package var profile: Int? { pointer.pointee.profile < 0 ? nil : Int(pointer.pointee.profile) }
    /// FFmpeg's level number (H.264: 31 = 3.1; HEVC: 30 × level), nil when unknown.
    package var level: Int? { pointer.pointee.level <= 0 ? nil : Int(pointer.pointee.level) }
    /// The colour description as AVCodecContext option values (`color_primaries`, `color_trc`,
    /// `colorspace`, `color_range`, `chroma_sample_location`): only those the source states.
    package var colourOptions: [String: String] {
        let p = pointer.pointee
        var out: [String: String] = [:]
        if p.color_primaries != AVCOL_PRI_UNSPECIFIED { out["color_primaries"] = "\(p.color_primaries.rawValue)" }
        if p.color_trc != AVCOL_TRC_UNSPECIFIED { out["color_trc"] = "\(p.color_trc.rawValue)" }
        if p.color_space != AVCOL_SPC_UNSPECIFIED { out["colorspace"] = "\(p.color_space.rawValue)" }
        if p.color_range != AVCOL_RANGE_UNSPECIFIED { out["color_range"] = "\(p.color_range.rawValue)" }
        if p.chroma_location != AVCHROMA_LOC_UNSPECIFIED { out["chroma_sample_location"] = "\(p.chroma_location.rawValue)" }
        return out
    }
    /// The sample (pixel) aspect ratio, nil when square or unknown.
    package var sampleAspectRatio: Rational? {
        let r = pointer.pointee.sample_aspect_ratio
        return r.num > 0 && r.den > 0 && r.num != r.den ? Rational(r) : nil
    }
    /// Whether the stream is audio, video, subtitles or something else (`AVMEDIA_TYPE_*` name).
    package var mediaType: String {
        switch pointer.pointee.codec_type {
        case AVMEDIA_TYPE_VIDEO: "video"
        case AVMEDIA_TYPE_AUDIO: "audio"
        case AVMEDIA_TYPE_SUBTITLE: "subtitle"
        case AVMEDIA_TYPE_DATA: "data"
        case AVMEDIA_TYPE_ATTACHMENT: "attachment"
        default: "unknown"
        }
    }
    /// What the stream carries, as a `StreamID` names it: subtitles, timecode and the rest are data.
    package var streamKind: StreamKind {
        switch pointer.pointee.codec_type {
        case AVMEDIA_TYPE_VIDEO: .video
        case AVMEDIA_TYPE_AUDIO: .sound
        default: .data
        }
    }
    /// The four-character tag the container gave the stream ("tmcd" for a QuickTime timecode track).
    package var codecTag: String {
        let t = pointer.pointee.codec_tag
        guard t != 0 else { return "" }
        return String(decoding: (0..<4).map { UInt8((t >> ($0 * 8)) & 0xFF) }, as: UTF8.self)
    }
}
