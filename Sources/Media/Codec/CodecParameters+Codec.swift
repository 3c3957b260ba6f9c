import CFFmpeg
import RecCore

extension CodecParameters {
    /// Which codec the stream is in, from its `codec_id`: decisions switch on this, never on
    /// `codecName`, which is for people and messages.
    package var codec: Codec {
        switch pointer.pointee.codec_id {
        case AV_CODEC_ID_H264: .h264
        case AV_CODEC_ID_HEVC: .hevc
        case AV_CODEC_ID_FFV1: .ffv1
        case AV_CODEC_ID_MJPEG: .mjpeg
        case AV_CODEC_ID_AAC: .aac
        case AV_CODEC_ID_OPUS: .opus
        case AV_CODEC_ID_MP3: .mp3
        case AV_CODEC_ID_VORBIS: .vorbis
        case AV_CODEC_ID_AC3: .ac3
        case AV_CODEC_ID_EAC3: .eac3
        case AV_CODEC_ID_FLAC: .flac
        case AV_CODEC_ID_PCM_ALAW: .pcmALaw
        case AV_CODEC_ID_PCM_MULAW: .pcmMuLaw
        default: .other(codecName)
        }
    }
}
