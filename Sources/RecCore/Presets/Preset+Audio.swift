extension Preset {
    /// Reads the sound keys: `audio` (an encoder rec records with, "opus" for libopus, or
    /// "none"), `audio_rate` (8000–192000 Hz), `audio_channels` (1–8) and `audio_bitrate` (like
    /// `bitrate`, at least 6k). Media's `EncoderCatalog` checks the rest against FFmpeg: the
    /// rates an encoder takes and its bitrate range.
    static func audio(_ f: PresetFields) throws(RecError) -> PresetAudio {
        var audio = PresetAudio()
        if let name = try f.string(.audio, example: "\"aac\"") {
            let encoder = PresetAudio.aliases[name] ?? name
            guard encoder == PresetAudio.none || PresetAudio.families[encoder] != nil else {
                let known = PresetAudio.names + Array(PresetAudio.aliases.keys) + [PresetAudio.none]
                let hint = nearestName(to: name, in: known).map { "did you mean \"\(PresetAudio.aliases[$0] ?? $0)\"? " } ?? ""
                throw f.fail("\"audio\" \"\(name)\" is not an encoder rec records sound with; \(hint)use \(PresetAudio.names.joined(separator: ", ")) (or \"opus\" for libopus), or \"none\" for no sound")
            }
            audio.encoder = encoder
        }
        if let rate = try f.integer(.audioRate, example: "48000") {
            guard (8000...192_000).contains(rate) else {
                let hint = (8...192).contains(rate) ? "; did you mean \(rate * 1000)?" : ""
                throw f.fail("\"audio_rate\" is \(rate); it must be from 8000 to 192000 samples per second (Hz), e.g. 48000\(hint)")
            }
            audio.sampleRate = rate
        }
        if let channels = try f.integer(.audioChannels, example: "2") {
            guard (1...8).contains(channels) else {
                throw f.fail("\"audio_channels\" is \(channels); it must be from 1 to 8 (1 is mono, 2 stereo, 6 is 5.1)")
            }
            audio.channels = channels
        }
        audio.bitrate = try f.bitrate(.audioBitrate, examples: ("160k", "96k", "160000"), lowest: 6000, unit: "k")
        return audio
    }

    /// Checks that the sound keys fit together and the container holds the sound's codec.
    func validateAudio(_ f: PresetFields) throws(RecError) {
        if audio.isNone {
            let set = PresetKey.audioKeys.dropFirst().filter { f.has($0) }.map { "\"\($0.rawValue)\"" }
            guard set.isEmpty else {
                throw f.fail("\"audio\" is \"none\", so \(set.joined(separator: ", ")) cannot apply; remove \(set.count == 1 ? "it" : "them") or name an encoder such as \"aac\"")
            }
            return
        }
        guard let encoding = audioEncoding else { return }
        let stated = audio.encoder != nil ? "" : " (the default for \(isLossless ? "lossless video in " : "")\(container.rawValue))"
        if audio.bitrate != nil, !PresetAudio.takesBitrate(encoding.encoder) {
            throw f.fail("\(encoding.encoder)\(stated) is lossless and takes no \"audio_bitrate\"; remove it, or name a lossy encoder such as \"audio\": \"aac\"")
        }
        if let family = PresetAudio.families[encoding.encoder],
           let refusal = container.audioRefusal(of: family, encoder: encoding.encoder) {
            throw f.fail(refusal)
        }
    }
}
