/// What a recording does with a source's own sound (a network camera's, a file's) when it copies
/// the pictures: copy the packets into the ring and the file as they came, re-encode them to the
/// preset's codec (Media's `SoundTranscoder`), or leave the sound out, saying why. Pure.
package enum SoundPlan: Sendable, Equatable {
    /// The packets go in untouched.
    case copy
    /// Decoded and encoded again with this encoding, on the packets' own timeline.
    case reencode(AudioEncoding)
    /// No sound; the reason is for the log and `status`.
    case drop(reason: String)

    /// The codecs a source's sound is copied into a container as, beyond those rec encodes into it
    /// (`Container.audioFamilies`). Checked by writing each with FFmpeg 5.1's muxers and reading it
    /// back with FFmpeg, GStreamer 1.22 and Chromium:
    /// - mp4 takes aac, opus and mp3, and refuses G.711 ("Could not find tag for codec pcm_alaw"),
    ///   G.726, G.722 and big-endian PCM (RTP's L16): those are re-encoded.
    /// - mov takes G.711 as `alaw` and `ulaw`, and mp3; not opus ("opus only supported in MP4").
    ///   It writes G.726 too, as `ms\0E`, which GStreamer cannot play: re-encoded.
    /// - Matroska takes aac, opus and mp3, and G.711 as `A_MS/ACM` (WAVE format 6 and 7), which all
    ///   three read back; G.726 and G.722 are re-encoded like everywhere else, for one rule.
    /// - webm takes only opus (and vorbis, which no camera sends).
    package static func copied(into container: Container) -> Set<Codec> {
        switch container {
        case .mp4: [.aac, .opus, .mp3]
        case .mov: [.aac, .mp3, .pcmALaw, .pcmMuLaw]
        case .mkv: [.aac, .opus, .mp3, .pcmALaw, .pcmMuLaw]
        case .webm: [.opus, .vorbis]
        }
    }

    /// The plan for a source's sound in `codec` recorded into `container` with the preset's sound
    /// `encoding` (nil for `"audio": "none"`): copied where the container holds it (`copied(into:)`,
    /// and what rec writes into it: `Container.audioFamilies`), re-encoded to `encoding` where it
    /// does not (G.711 into MP4 becomes AAC), dropped when there is no sound to record or `encoding`
    /// does not fit the container either. Whether FFmpeg can decode the codec is Media's to find
    /// out: a `SoundTranscoder` that cannot open its decoder says so.
    package static func forCamera(codec: Codec, container: Container, encoding: AudioEncoding?) -> SoundPlan {
        guard let encoding else { return .drop(reason: "the preset records no sound (\"audio\": \"none\")") }
        // The families rec writes are FFmpeg's names in a table (`Container.audioFamilies`, shared
        // with the presets), looked up, not decided on.
        let written = container.audioFamilies ?? Array(PresetAudio.families.values)
        if copied(into: container).contains(codec) || written.contains(codec.name) { return .copy }
        let family = PresetAudio.families[encoding.encoder] ?? encoding.encoder
        if let refusal = container.audioRefusal(of: family, encoder: encoding.encoder) {
            return .drop(reason: "\(container.rawValue) cannot hold the source's \(codec) sound, and re-encoding it fails too: \(refusal)")
        }
        return .reencode(encoding)
    }
}
