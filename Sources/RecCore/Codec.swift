/// A stream's codec as the pure core sees it: decisions switch on the case; `name` (FFmpeg's
/// short name: "aac", "h264") is for people and messages. Media makes it from the stream's
/// `codec_id` (`CodecParameters.codec`), never from a name.
package enum Codec: Sendable, Hashable, CustomStringConvertible {
    case h264, hevc, ffv1, mjpeg
    case aac, opus, mp3, vorbis, ac3, eac3, flac
    /// G.711 A-law and µ-law: a network camera's sound over RTP (PCMA, PCMU).
    case pcmALaw, pcmMuLaw
    /// Any other codec, with FFmpeg's name for it: nothing in rec treats it specially.
    case other(String)

    /// FFmpeg's short name for the codec (`avcodec_get_name`).
    package var name: String {
        switch self {
        case .h264: "h264"
        case .hevc: "hevc"
        case .ffv1: "ffv1"
        case .mjpeg: "mjpeg"
        case .aac: "aac"
        case .opus: "opus"
        case .mp3: "mp3"
        case .vorbis: "vorbis"
        case .ac3: "ac3"
        case .eac3: "eac3"
        case .flac: "flac"
        case .pcmALaw: "pcm_alaw"
        case .pcmMuLaw: "pcm_mulaw"
        case .other(let name): name
        }
    }

    package var description: String { name }
}
