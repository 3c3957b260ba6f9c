extension Preset {
    /// The preset as pretty JSON in key-table order (docs/PRESETS.md), keys it leaves at their
    /// defaults omitted; the form `rec presets show` prints and presets/*.json are written in.
    /// Parsing this text gives the same preset back.
    package var jsonText: String {
        var lines: [String] = []
        func add(_ key: PresetKey, _ json: String) { lines.append("  \(Preset.quote(key.rawValue)): \(json)") }
        if !description.isEmpty { add(.description, Preset.quote(description)) }
        add(.container, Preset.quote(container.rawValue))
        add(.encoder, Preset.quote(encoder))
        if let pixelFormat { add(.pixelFormat, Preset.quote(pixelFormat)) }
        switch rateControl {
        case .crf(let crf)?: add(.crf, Preset.formatNumber(crf))
        case .bitrate(let bits)?: add(.bitrate, Preset.quote(RateControl.formatBitrate(bits)))
        case .qscale(let q)?: add(.qscale, "\(q)")
        case nil: break
        }
        if keyframeInterval != 1.0 || !isCopy { add(.keyframeInterval, Preset.formatNumber(keyframeInterval)) }
        if let bframes { add(.bframes, "\(bframes)") }
        if let speed { add(.preset, Preset.quote(speed)) }
        if let tune { add(.tune, Preset.quote(tune)) }
        if let filter { add(.filter, Preset.quote(filter)) }
        if let size { add(.size, Preset.quote(size.description)) }
        if let fps { add(.fps, fps.den == 1 ? "\(fps.num)" : Preset.quote(fps.description)) }
        if let encoder = audio.encoder { add(.audio, Preset.quote(encoder)) }
        if let rate = audio.sampleRate { add(.audioRate, "\(rate)") }
        if let channels = audio.channels { add(.audioChannels, "\(channels)") }
        if let bitrate = audio.bitrate { add(.audioBitrate, Preset.quote(RateControl.formatBitrate(bitrate))) }
        if !options.isEmpty {
            let members = options.sorted { $0.key < $1.key }.map { "    \(Preset.quote($0.key)): \(Preset.quote($0.value))" }
            add(.options, "{\n" + members.joined(separator: ",\n") + "\n  }")
        }
        if !controls.isEmpty {
            let members = controls.map { "    \(Preset.quote($0.name)): \(Preset.controlJSON($0.value))" }
            add(.controls, "{\n" + members.joined(separator: ",\n") + "\n  }")
        }
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }

    /// A JSON string literal.
    package static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
