/// A preset's sound keys as the file states them (`audio`, `audio_rate`, `audio_channels`,
/// `audio_bitrate`); nil where it says nothing. `Preset.audioEncoding` fills the rest from the
/// container's default (`AudioEncoding.standard`).
package struct PresetAudio: Sendable, Equatable {
    /// A libavcodec audio encoder name ("aac", "libopus", "flac", "pcm_s16le", "pcm_s24le"), or
    /// "none" for no sound even when a source is given.
    package var encoder: String?
    package var sampleRate: Int?
    package var channels: Int?
    /// Bits per second, for the lossy encoders (aac, libopus).
    package var bitrate: Int?

    package init(encoder: String? = nil, sampleRate: Int? = nil, channels: Int? = nil, bitrate: Int? = nil) {
        self.encoder = encoder
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitrate = bitrate
    }

    /// `"audio": "none"`.
    package var isNone: Bool { encoder == PresetAudio.none }
    package static let none = "none"

    /// The encoders a preset may name and the codec family each writes (`avcodec_get_name`).
    package static let families: [String: String] = [
        "aac": "aac", "libopus": "opus", "flac": "flac", "pcm_s16le": "pcm_s16le", "pcm_s24le": "pcm_s24le",
    ]
    /// Names people write for an encoder: FFmpeg's native "opus" encoder is experimental, so
    /// "opus" means libopus.
    package static let aliases = ["opus": "libopus"]
    /// The names in the order messages list them.
    package static let names = ["aac", "libopus", "flac", "pcm_s16le", "pcm_s24le"]

    /// The bitrate an encoder gets when the preset names it without one: AAC 160 kb/s, Opus
    /// 128 kb/s; nil for the lossless ones.
    package static func defaultBitrate(of encoder: String) -> Int? {
        switch encoder {
        case "aac": 160_000
        case "libopus": 128_000
        default: nil
        }
    }

    /// Whether the encoder is lossy and so takes a bitrate.
    package static func takesBitrate(_ encoder: String) -> Bool { defaultBitrate(of: encoder) != nil }
}

extension Preset {
    /// The sound a recording with this preset encodes, when a source gives sound: nil for
    /// `"audio": "none"`; otherwise the stated keys on top of the container's default
    /// (`AudioEncoding.standard(for: container, lossless: isLossless)`). Naming another encoder
    /// than the default starts from that encoder's own defaults (48 kHz, stereo, its bitrate).
    package var audioEncoding: AudioEncoding? {
        guard !audio.isNone else { return nil }
        var encoding = AudioEncoding.standard(for: container, lossless: isLossless)
        if let name = audio.encoder, name != encoding.encoder {
            encoding = AudioEncoding(encoder: name, bitrate: PresetAudio.defaultBitrate(of: name))
        }
        if let rate = audio.sampleRate { encoding.sampleRate = rate }
        if let channels = audio.channels { encoding.channels = channels }
        if let bitrate = audio.bitrate { encoding.bitrate = bitrate }
        return encoding
    }

    /// Whether the video keeps every pixel (an encoder with no rate control to lose by: ffv1),
    /// which makes the default sound lossless too.
    package var isLossless: Bool {
        guard !isCopy, let known = KnownEncoder.table[encoder] else { return false }
        return known.crf == nil && !known.takesBitrate && !known.takesQscale
    }
}
