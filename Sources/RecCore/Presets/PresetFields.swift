/// Reads a preset object's members with typed checks; every failure is a usage error that names
/// the preset, the key and what to write instead.
struct PresetFields {
    var members: [(key: String, value: JSONValue)]
    /// "preset 'mine' (/home/me/.config/rec/presets/mine.json)", the prefix of every message.
    var subject: String
    var origin: String

    func fail(_ message: String) -> RecError { .usage("\(subject): \(message)", location: origin) }

    func has(_ key: PresetKey) -> Bool { members.contains { $0.key == key.rawValue } }

    private func value(_ key: PresetKey) -> JSONValue? { members.first { $0.key == key.rawValue }?.value }

    private func wrongType(_ key: PresetKey, _ got: JSONValue, _ want: String, _ example: String) -> RecError {
        fail("\"\(key.rawValue)\" must be \(want), not \(got.typeName); for example \"\(key.rawValue)\": \(example)")
    }

    func string(_ key: PresetKey, example: String) throws(RecError) -> String? {
        guard let v = value(key) else { return nil }
        guard case .string(let s) = v else { throw wrongType(key, v, "a string", example) }
        guard !s.allSatisfy(\.isWhitespace) || key == .description else {
            throw fail("\"\(key.rawValue)\" is empty; remove the key or give a value like \(example)")
        }
        return s
    }

    func number(_ key: PresetKey, example: String) throws(RecError) -> Double? {
        guard let v = value(key) else { return nil }
        guard case .number(let n) = v else { throw wrongType(key, v, "a number", example) }
        return n
    }

    func integer(_ key: PresetKey, example: String) throws(RecError) -> Int? {
        guard let n = try number(key, example: example) else { return nil }
        guard n == n.rounded(), abs(n) < 1e9 else {
            throw fail("\"\(key.rawValue)\" must be a whole number, not \(Preset.formatNumber(n)); for example \"\(key.rawValue)\": \(example)")
        }
        return Int(n)
    }

    /// A string or number (numbers become their text: 1 → "1").
    func scalarText(_ key: PresetKey, example: String) throws(RecError) -> (text: String, isNumber: Bool)? {
        guard let v = value(key) else { return nil }
        switch v {
        case .string(let s): return (s, false)
        case .number(let n): return (Preset.formatNumber(n), true)
        default: throw wrongType(key, v, "a string or a number", example)
        }
    }

    /// A bitrate as FFmpeg writes them ("4M", "2500k", 4000000) of at least `lowest` bits per
    /// second; a bare number below that is taken for a missing `unit` ("did you mean \"4M\"?").
    func bitrate(_ key: PresetKey, examples: (String, String, String), lowest: Int, unit: String) throws(RecError) -> Int? {
        guard let (text, isNumber) = try scalarText(key, example: "\"\(examples.0)\"") else { return nil }
        guard let bits = RateControl.parseBitrate(text), bits > 0 else {
            throw fail("\"\(key.rawValue)\" \"\(text)\" is not a bitrate; write bits per second like \"\(examples.0)\", \"\(examples.1)\" or \(examples.2)")
        }
        guard bits >= lowest else {
            let suggestion = isNumber || !text.contains(where: \.isLetter) ? "; did you mean \"\(text)\(unit)\"?" : ""
            throw fail("\"\(key.rawValue)\" \(text) is only \(bits) bits per second\(suggestion) (the lowest is \(RateControl.formatBitrate(lowest)))")
        }
        return bits
    }

    /// An object whose values are strings (numbers and booleans are taken as their text).
    func stringMap(_ key: PresetKey, example: String) throws(RecError) -> [String: String]? {
        guard let v = value(key) else { return nil }
        guard case .object(let members) = v else { throw wrongType(key, v, "an object", example) }
        var out: [String: String] = [:]
        for (k, item) in members {
            switch item {
            case .string(let s): out[k] = s
            case .number(let n): out[k] = Preset.formatNumber(n)
            case .bool(let b): out[k] = b ? "1" : "0"
            default:
                throw fail("option \"\(k)\" in \"\(key.rawValue)\" must be a string, not \(item.typeName); for example \"\(k)\": \"1\"")
            }
        }
        return out
    }
}
