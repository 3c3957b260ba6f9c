import CFFmpeg
import RecCore

extension EncoderCatalog {
    /// Checks a preset's sound (`Preset.audioEncoding`, defaults included) against this FFmpeg:
    /// that the encoder exists and is an audio encoder, that it takes the rate (its
    /// `AVCodec.supported_samplerates`: libopus 48000, 24000, 16000, 12000 and 8000; aac the AAC
    /// rates), and that a bitrate is in its range (`audioBitrates`).
    static func validateAudio(_ preset: Preset, fail: (String) -> RecError) throws(RecError) {
        guard let encoding = preset.audioEncoding else { return }
        let name = encoding.encoder
        guard let codec = avcodec_find_encoder_by_name(name), codec.pointee.type == AVMEDIA_TYPE_AUDIO else {
            throw fail("this FFmpeg has no audio encoder '\(name)' (`ffmpeg -encoders` lists them); name another in \"audio\", or \"none\"")
        }
        let rates = AudioEncoder.sampleRates(codec)
        // No list means any rate; else the nearest listed one is the hint.
        if let nearest = rates.min(by: { abs($0 - encoding.sampleRate) < abs($1 - encoding.sampleRate) }),
           !rates.contains(encoding.sampleRate) {
            throw fail("\(name) cannot record at \(encoding.sampleRate) Hz; set \"audio_rate\" to one of \(rates.map(String.init).joined(separator: ", ")) (the nearest is \(nearest))")
        }
        if let bits = encoding.bitrate, let range = audioBitrates(encoding), !range.contains(bits) {
            let format = RateControl.formatBitrate
            throw fail("\"audio_bitrate\" \(format(bits)) is outside what \(name) takes at \(encoding.sampleRate) Hz, \(encoding.channels) ch: use \(format(range.lowerBound)) to \(format(range.upperBound))")
        }
    }

    /// The bitrates worth asking a lossy encoder for, nil for the others: aac from 6k to 6144 bits
    /// a channel per 1024-sample frame (where FFmpeg's encoder clamps: 288k a channel at 48 kHz),
    /// libopus from 6k to 256k a channel (libopus's own limit).
    package static func audioBitrates(_ encoding: AudioEncoding) -> ClosedRange<Int>? {
        switch encoding.encoder {
        case "aac": 6000...(6144 * encoding.sampleRate / 1024 * encoding.channels)
        case "libopus": 6000...(256_000 * encoding.channels)
        default: nil
        }
    }
}
