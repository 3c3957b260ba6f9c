extension Preset {
    /// Parses and validates a preset's JSON text: syntax (with line and column), keys, types,
    /// values and whether the container can hold the codec. `origin` is the file path or
    /// "built-in"; every error is `RecError.usage` naming the preset and what to write instead.
    package static func parse(_ text: String, name: String, origin: String) throws(RecError) -> Preset {
        let subject = "preset '\(name)' (\(origin))"
        let root: JSONValue
        do {
            root = try JSONParser.parse(text)
        } catch {
            throw RecError.usage("\(subject) is not valid JSON: \(error); fix the file or move it aside",
                                 cause: error.description, location: origin)
        }
        guard case .object(var members) = root else {
            throw RecError.usage("\(subject) must be a JSON object like {\"container\": \"mp4\", \"encoder\": \"libx264\"}, not \(root.typeName)",
                                 location: origin)
        }
        var fields = PresetFields(members: members, subject: subject, origin: origin)
        try checkKeys(fields)
        if let base = try fields.string(.base, example: "\"default\"") {
            members = try merged(members, onto: base, fields: fields)
            fields.members = members
        }
        return try Preset(name: name, fields: fields)
    }

    private static func checkKeys(_ fields: PresetFields) throws(RecError) {
        for (key, _) in fields.members where PresetKey(rawValue: key) == nil {
            if key == "name" {
                throw fields.fail("\"name\" is not a key: a preset is named by its file name (mine.json is preset 'mine'); remove \"name\"")
            }
            let hint = PresetKey.nearest(to: key).map { "did you mean \"\($0.rawValue)\"? " } ?? ""
            throw fields.fail("unknown key \"\(key)\"; \(hint)valid keys are \(PresetKey.list)")
        }
    }

    /// The built-in `base`'s members with these on top: a rate control here replaces the base's,
    /// an `audio` here replaces all of the base's sound keys, and options merge key by key.
    private static func merged(_ members: [(key: String, value: JSONValue)], onto base: String,
                               fields: PresetFields) throws(RecError) -> [(key: String, value: JSONValue)] {
        guard let baseText = BuiltinPresets.json[base], case .object(var out)? = try? JSONParser.parse(baseText) else {
            throw fields.fail("\"base\" names no built-in preset '\(base)'; built-ins are \(BuiltinPresets.names.joined(separator: ", "))")
        }
        let rateKeys: Set<String> = [PresetKey.crf.rawValue, PresetKey.bitrate.rawValue, PresetKey.qscale.rawValue]
        if members.contains(where: { rateKeys.contains($0.key) }) { out.removeAll { rateKeys.contains($0.key) } }
        if members.contains(where: { $0.key == PresetKey.audio.rawValue }) {
            out.removeAll { PresetKey(rawValue: $0.key).map(PresetKey.audioKeys.contains) ?? false }
        }
        for (key, value) in members where key != PresetKey.base.rawValue {
            var value = value
            if key == PresetKey.options.rawValue || key == PresetKey.controls.rawValue, case .object(let mine) = value, case .object(var theirs)? = out.first(where: { $0.key == key })?.value {
                for (k, v) in mine { theirs.removeAll { $0.key == k }; theirs.append((k, v)) }
                value = .object(theirs)
            }
            out.removeAll { $0.key == key }
            out.append((key, value))
        }
        return out
    }

    private init(name: String, fields f: PresetFields) throws(RecError) {
        let containerText = try f.string(.container, example: "\"mp4\"")
        guard let containerText else { throw f.fail("\"container\" is missing; add one of \(Container.allCases.map(\.rawValue).joined(separator: ", "))") }
        guard let container = Container(rawValue: containerText) else {
            throw f.fail("unknown container \"\(containerText)\"; use one of \(Container.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let encoder = try f.string(.encoder, example: "\"libx264\"") else {
            throw f.fail("\"encoder\" is missing; add a libavcodec encoder such as \"libx264\" (`ffmpeg -encoders` lists them)")
        }
        let description = try f.string(.description, example: "\"H.264 for everyday recording\"") ?? ""
        guard !description.contains(where: \.isNewline) else { throw f.fail("\"description\" must be one line; `rec presets` shows it beside the name") }
        self.init(name: name, description: description, container: container, encoder: encoder)
        pixelFormat = try f.string(.pixelFormat, example: "\"yuv420p\"")
        rateControl = try Preset.rateControl(f)
        if let k = try f.number(.keyframeInterval, example: "1.0") {
            guard k > 0, k <= 3600 else {
                throw f.fail("\"keyframe_interval\" is \(Preset.formatNumber(k)) seconds; it must be above 0 and at most 3600, e.g. 1.0")
            }
            keyframeInterval = k
        }
        if let b = try f.integer(.bframes, example: "0") {
            guard (0...16).contains(b) else { throw f.fail("\"bframes\" is \(b); it must be from 0 to 16 (0 turns B-frames off)") }
            bframes = b
        }
        speed = try f.string(.preset, example: "\"veryfast\"")
        tune = try f.string(.tune, example: "\"film\"")
        filter = try f.string(.filter, example: "\"hflip\"")
        if let s = try f.string(.size, example: "\"1280x720\"") {
            guard let size = FrameSize(s), (16...16384).contains(size.width), (16...16384).contains(size.height) else {
                throw f.fail("\"size\" \"\(s)\" is not WIDTHxHEIGHT (each 16 to 16384); for example \"1280x720\"")
            }
            self.size = size
        }
        fps = try Preset.frameRate(f)
        options = try f.stringMap(.options, example: "{\"threads\": \"2\"}") ?? [:]
        controls = try Preset.controls(f)
        audio = try Preset.audio(f)
        try validateCombination(f)
        try validateAudio(f)
    }

    private static func rateControl(_ f: PresetFields) throws(RecError) -> RateControl? {
        let given = [PresetKey.crf, .bitrate, .qscale].filter { f.has($0) }
        guard given.count <= 1 else {
            throw f.fail("\(given.map { "\"\($0.rawValue)\"" }.joined(separator: " and ")) are both set; keep one rate control")
        }
        if let crf = try f.number(.crf, example: "23") {
            guard crf >= 0 else { throw f.fail("\"crf\" is \(Preset.formatNumber(crf)); it cannot be negative (0 is best quality, 23 is x264's default)") }
            return .crf(crf)
        }
        if let bits = try f.bitrate(.bitrate, examples: ("4M", "2500k", "4000000"), lowest: 10_000, unit: "M") {
            return .bitrate(bits)
        }
        if let q = try f.integer(.qscale, example: "3") {
            guard (1...31).contains(q) else { throw f.fail("\"qscale\" is \(q); it must be from 1 (best) to 31 (worst), e.g. 3") }
            return .qscale(q)
        }
        return nil
    }

    private static func frameRate(_ f: PresetFields) throws(RecError) -> Rational? {
        guard let (text, _) = try f.scalarText(.fps, example: "30") else { return nil }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let num = parts.first.flatMap { Int32($0) }, den = parts.count == 2 ? Int32(parts[1]) : (parts.count == 1 ? 1 : nil)
        guard let num, let den, num > 0, den > 0, Double(num) / Double(den) <= 1000 else {
            throw f.fail("\"fps\" \(text) is not a frame rate; write a whole number like 30 or a fraction like \"30000/1001\"")
        }
        return Rational(num, den)
    }
}
