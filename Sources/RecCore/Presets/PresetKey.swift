/// The keys a preset file may contain, in the order presets print them.
package enum PresetKey: String, Sendable, CaseIterable {
    case description, base, container, encoder
    case pixelFormat = "pixel_format"
    case crf, bitrate, qscale
    case keyframeInterval = "keyframe_interval"
    case bframes, preset, tune, filter, size, fps
    case audio
    case audioRate = "audio_rate"
    case audioChannels = "audio_channels"
    case audioBitrate = "audio_bitrate"
    case options, controls

    /// The keys that describe the sound (PresetAudio): a preset's `audio` replaces all of its
    /// base's.
    package static let audioKeys: [PresetKey] = [.audio, .audioRate, .audioChannels, .audioBitrate]

    /// Every valid key, comma-separated, for error messages.
    package static var list: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The valid key closest to a misspelt one (edit distance at most 3, or one contains the
    /// other), if any.
    package static func nearest(to key: String) -> PresetKey? {
        let lower = String(key.lowercased().map { $0 == "-" ? "_" : $0 })
        if let exact = PresetKey(rawValue: lower) ?? aliases[lower] { return exact }
        let scored = allCases.map { ($0, editDistance(lower, $0.rawValue)) }
        if let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= min(3, max(1, best.0.rawValue.count / 3)) { return best.0 }
        return allCases.first { lower.count >= 3 && ($0.rawValue.contains(lower) || lower.contains($0.rawValue)) }
    }

    /// FFmpeg command-line spellings people reach for.
    static let aliases: [String: PresetKey] = [
        "pix_fmt": .pixelFormat, "pixfmt": .pixelFormat, "format": .container, "codec": .encoder,
        "c:v": .encoder, "vcodec": .encoder, "b": .bitrate, "b:v": .bitrate, "q": .qscale, "q:v": .qscale,
        "g": .keyframeInterval, "gop": .keyframeInterval, "bf": .bframes, "speed": .preset, "vf": .filter,
        "s": .size, "r": .fps, "framerate": .fps, "rate": .fps,
        "c:a": .audio, "acodec": .audio, "audio_codec": .audio, "audio_encoder": .audio, "ar": .audioRate,
        "sample_rate": .audioRate, "ac": .audioChannels, "channels": .audioChannels, "b:a": .audioBitrate, "ab": .audioBitrate,
    ]

    /// Levenshtein distance between two strings.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in 1...max(b.count, 1) where !b.isEmpty {
                let old = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = old
            }
        }
        return row[b.count]
    }
}

/// Finds the name closest to a misspelt one among candidates, for "did you mean" advice.
func nearestName(to name: String, in candidates: [String]) -> String? {
    let scored = candidates.map { ($0, PresetKey.editDistance(name.lowercased(), $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(1, min(3, best.0.count / 3)) else {
        return candidates.first { name.count >= 3 && $0.hasPrefix(name) }
    }
    return best.0
}
