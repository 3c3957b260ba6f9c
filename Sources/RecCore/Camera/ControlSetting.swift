/// One `name=value` a user asked for: from `--control`, a preset's `controls` or `rec control`.
/// The value is kept as written; `ControlPlan` reads it against the camera's description.
package struct ControlSetting: Sendable, Equatable, Codable {
    /// The control's v4l2-ctl name, e.g. "exposure_time_absolute".
    package var name: String
    /// As written: "250", "manual", "true".
    package var value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Parses "name=value" (spaces around either side are dropped; the name is lower-cased, so
    /// "Brightness=10" works); a usage error says what the form is.
    package static func parse(_ text: String) throws(RecError) -> ControlSetting {
        guard let equals = text.firstIndex(of: "=") else {
            throw .usage("'\(text)' is not a control setting; write NAME=VALUE, e.g. brightness=128 or auto_exposure=manual (`rec devices` lists the controls)")
        }
        let name = text[..<equals].trimmingWhitespace().lowercased()
        let value = text[text.index(after: equals)...].trimmingWhitespace()
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
            throw .usage("'\(name)' in '\(text)' is not a control name; names are lower-case with underscores, as `rec devices` prints them, e.g. exposure_time_absolute")
        }
        guard !value.isEmpty else {
            throw .usage("'\(text)' gives no value; write \(name)=VALUE (`rec devices` shows each control's range)")
        }
        return ControlSetting(name: name, value: value)
    }

    /// `lower` with `upper` on top, name by name: a command line's setting replaces the preset's
    /// setting of the same control, keeping the order in which each first appeared.
    package static func merged(_ lower: [ControlSetting], _ upper: [ControlSetting]) -> [ControlSetting] {
        var out = lower
        for setting in upper {
            if let i = out.firstIndex(where: { $0.name == setting.name }) { out[i] = setting } else { out.append(setting) }
        }
        return out
    }

    package var description: String { "\(name)=\(value)" }
}

extension Substring {
    func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
