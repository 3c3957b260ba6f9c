/// How a recording's sound is encoded: made from a preset's audio keys (docs/PRESETS.md).
/// Pure: Media turns it into an encoder.
package struct AudioEncoding: Sendable, Equatable {
    /// A libavcodec audio encoder name: "aac" (FFmpeg's native AAC), "libopus", "flac", "pcm_s16le",
    /// "pcm_s24le".
    package var encoder: String
    /// Samples per second of the encoded stream (and of the session's audio timeline).
    package var sampleRate: Int
    package var channels: Int
    /// Bits per second for lossy encoders; nil for the encoder's default (and for FLAC/PCM).
    package var bitrate: Int?

    package init(encoder: String, sampleRate: Int = 48_000, channels: Int = 2, bitrate: Int? = nil) {
        self.encoder = encoder
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitrate = bitrate
    }

    /// The default for a container: AAC 160 kb/s for MP4/MOV/Matroska, Opus 128 kb/s for WebM.
    /// When the video is lossless, the sound is too where the container holds a lossless codec
    /// FFmpeg 5.1 writes without its experimental flag: FLAC in Matroska, 24-bit PCM in MOV (its
    /// mov muxer refuses FLAC); MP4 (FLAC only experimental) and WebM (Opus or Vorbis only) keep
    /// their lossy default.
    package static func standard(for container: Container, lossless: Bool = false) -> AudioEncoding {
        switch container {
        case .mkv where lossless: return AudioEncoding(encoder: "flac")
        case .mov where lossless: return AudioEncoding(encoder: "pcm_s24le")
        case .webm: return AudioEncoding(encoder: "libopus", bitrate: 128_000)
        default: return AudioEncoding(encoder: "aac", bitrate: 160_000)
        }
    }
}
