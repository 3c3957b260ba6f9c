extension Preset {
    /// The "controls" object: control names to values (strings, whole numbers or booleans),
    /// kept in the file's order. Names are checked for their form here and against the camera
    /// when it opens; values are checked then too, against the camera's ranges and menus.
    static func controls(_ f: PresetFields) throws(RecError) -> [ControlSetting] {
        guard let members = try f.object(.controls, example: "{\"auto_exposure\": \"manual\", \"exposure_time_absolute\": 250}")
        else { return [] }
        var out: [ControlSetting] = []
        for (name, item) in members {
            let text: String
            switch item {
            case .string(let s): text = s
            case .number(let n) where n == n.rounded() && abs(n) < 1e15: text = Preset.formatNumber(n)
            case .bool(let b): text = b ? "true" : "false"
            default:
                throw f.fail("control \"\(name)\" must be a menu entry's name, a whole number or true/false, not \(item.typeName); for example \"\(name)\": 128")
            }
            let setting: ControlSetting
            do { setting = try ControlSetting.parse("\(name)=\(text)") } catch { throw f.fail("in \"controls\": \(error.message)") }
            guard setting.name == name else {
                throw f.fail("control \"\(name)\" must be written lower-case with underscores, as `rec devices` prints it: \"\(setting.name)\"")
            }
            guard !out.contains(where: { $0.name == name }) else { throw f.fail("control \"\(name)\" is set twice; keep one") }
            out.append(setting)
        }
        return out
    }

    /// A control's value as JSON: whole numbers and booleans bare, menu names quoted.
    static func controlJSON(_ value: String) -> String {
        if value == "true" || value == "false" || Int64(value) != nil { return value }
        return quote(value)
    }
}

extension PresetFields {
    /// An object's members in order, or nil when the key is absent.
    func object(_ key: PresetKey, example: String) throws(RecError) -> [(key: String, value: JSONValue)]? {
        guard let v = members.first(where: { $0.key == key.rawValue })?.value else { return nil }
        guard case .object(let members) = v else {
            throw fail("\"\(key.rawValue)\" must be an object, not \(v.typeName); for example \"\(key.rawValue)\": \(example)")
        }
        return members
    }
}
