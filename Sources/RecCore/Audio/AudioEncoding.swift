/// How a recording's sound is encoded: made from a preset's audio keys (docs/PRESETS.md).
/// Pure: Media turns it into an encoder.
public struct AudioEncoding: Sendable, Equatable {
    /// A libavcodec audio encoder name: "aac" (FFmpeg's native AAC), "libopus", "flac", "pcm_s16le".
    public var encoder: String
    /// Samples per second of the encoded stream (and of the session's audio timeline).
    public var sampleRate: Int
    public var channels: Int
    /// Bits per second for lossy encoders; nil for the encoder's default (and for FLAC/PCM).
    public var bitrate: Int?

    public init(encoder: String, sampleRate: Int = 48_000, channels: Int = 2, bitrate: Int? = nil) {
        self.encoder = encoder
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitrate = bitrate
    }

    /// The default for a container: AAC for MP4/MOV/Matroska, Opus for WebM, FLAC when the
    /// video is lossless.
    public static func standard(for container: Container, lossless: Bool = false) -> AudioEncoding {
        if lossless { return AudioEncoding(encoder: container == .webm ? "libopus" : "flac") }
        switch container {
        case .webm: return AudioEncoding(encoder: "libopus", bitrate: 128_000)
        default: return AudioEncoding(encoder: "aac", bitrate: 160_000)
        }
    }
}
