/// A setting checked against the camera's description: the control and the number to set it to.
package struct ResolvedControl: Sendable, Equatable {
    package var control: CameraControl
    package var value: Int64

    package init(control: CameraControl, value: Int64) {
        self.control = control
        self.value = value
    }
}

/// The policy for camera controls, without a camera: reading `name=value` against a control's
/// description (ranges, steps, menus by name, booleans), the order to apply them in (auto
/// controls first, so `exposure_time_absolute=250 auto_exposure=manual` works in either order),
/// and the advice when a manual control is inactive because its auto control is on.
package enum ControlPlan {
    /// Checks every setting against `controls` and orders them auto controls first (otherwise
    /// as given). `hint` prefixes the advice in messages: "--control " on the command line.
    /// Throws `RecError.usage` naming the valid range or menu entries.
    package static func resolve(_ settings: [ControlSetting], against controls: [CameraControl], camera: String,
                               hint: String = "--control ") throws(RecError) -> [ResolvedControl] {
        var seen: Set<String> = []
        var resolved: [ResolvedControl] = []
        for setting in settings {
            guard seen.insert(setting.name).inserted else {
                throw .usage("\(setting.name) is set twice; give each control once")
            }
            let control = try find(setting.name, in: controls, camera: camera)
            resolved.append(ResolvedControl(control: control, value: try value(setting.value, for: control, hint: hint)))
        }
        return resolved.filter { isAuto($0.control) } + resolved.filter { !isAuto($0.control) }
    }

    /// The control called `name`, or a usage error with the nearest name and the list.
    package static func find(_ name: String, in controls: [CameraControl], camera: String) throws(RecError) -> CameraControl {
        if let control = controls.first(where: { $0.name == name }) { return control }
        guard !controls.isEmpty else {
            throw .usage("\(camera) has no controls rec can set; leave out \(name)")
        }
        let names = controls.map(\.name)
        let hint = nearestName(to: name, in: names).map { "did you mean \($0)? " } ?? ""
        throw .usage("\(camera) has no control '\(name)'; \(hint)it has \(names.joined(separator: ", ")) (`rec devices` shows their ranges)")
    }

    /// The number to set for `text`: a menu entry by name or index, a boolean as
    /// true/false/1/0/on/off, an integer within the range and on the step.
    package static func value(_ text: String, for c: CameraControl, hint: String = "--control ") throws(RecError) -> Int64 {
        guard c.kind.isSettable else {
            throw .usage("\(c.name) is a \(c.kind.rawValue) control, which rec cannot set; leave it out")
        }
        guard !c.flags.contains(.readOnly) else {
            throw .usage("\(c.name) is read-only on this camera (it reports \(c.value.map(c.describe) ?? "a value"), it cannot be set); leave it out")
        }
        let lower = text.lowercased()
        switch c.kind {
        case .boolean:
            switch lower {
            case "true", "1", "on", "yes": return 1
            case "false", "0", "off", "no": return 0
            default: throw .usage("\(c.name) is on or off; write \(hint)\(c.name)=true or \(c.name)=false, not '\(text)'")
            }
        case .menu, .integerMenu:
            return try menuValue(text, for: c, hint: hint)
        default:
            guard let number = Int64(text) else {
                throw .usage("\(c.name) takes a whole number from \(c.minimum) to \(c.maximum), not '\(text)'")
            }
            guard number >= c.minimum, number <= c.maximum else {
                throw .usage("\(c.name)=\(number) is out of range; it takes \(c.minimum) to \(c.maximum)"
                             + (c.step > 1 ? " in steps of \(c.step)" : "") + " (default \(c.defaultValue))")
            }
            if c.step > 1, (number - c.minimum) % c.step != 0 {
                let below = number - (number - c.minimum) % c.step
                let above = min(below + c.step, c.maximum)
                throw .usage("\(c.name) moves in steps of \(c.step) from \(c.minimum); try \(below) or \(above) instead of \(number)")
            }
            return number
        }
    }

    private static func menuValue(_ text: String, for c: CameraControl, hint: String) throws(RecError) -> Int64 {
        let entries = c.menu.map { "\($0.index) (\($0.name))" }.joined(separator: ", ")
        if c.kind == .integerMenu, let item = c.menu.first(where: { $0.name == text }) { return item.index }
        if let index = Int64(text) {
            guard c.menu.contains(where: { $0.index == index }) else {
                throw .usage("\(c.name) has no entry \(index); it offers \(entries)")
            }
            return index
        }
        let wanted = CameraControl.variableName(text)
        let exact = c.menu.filter { CameraControl.variableName($0.name) == wanted }
        let prefixed = c.menu.filter { CameraControl.variableName($0.name).hasPrefix(wanted + "_") }
        let matches = exact.isEmpty ? prefixed : exact
        guard matches.count == 1, !wanted.isEmpty else {
            let why = matches.count > 1 ? "'\(text)' could be \(matches.map { "'\($0.name)'" }.joined(separator: " or "))" : "\(c.name) has no entry '\(text)'"
            let example = c.menu.first.map { "\(hint)\(c.name)=\(shortName($0, in: c)) or " } ?? ""
            throw .usage("\(why); it offers \(entries) — write \(example)a number")
        }
        return matches[0].index
    }

    /// Whether setting this control can switch others between manual and automatic (its name
    /// says auto): such controls are applied first.
    package static func isAuto(_ c: CameraControl) -> Bool { c.name.contains("auto") }

    /// Manual controls and the auto controls that govern them, by v4l2-ctl name (old and new
    /// kernel spellings).
    static let governors: [String: [String]] = [
        "exposure_time_absolute": ["auto_exposure", "exposure_auto"],
        "exposure_absolute": ["auto_exposure", "exposure_auto"],
        "exposure": ["auto_exposure", "exposure_auto"],
        "iris_absolute": ["auto_exposure", "exposure_auto"],
        "focus_absolute": ["focus_automatic_continuous", "focus_auto"],
        "focus_relative": ["focus_automatic_continuous", "focus_auto"],
        "white_balance_temperature": ["white_balance_automatic", "white_balance_temperature_auto", "auto_white_balance"],
        "red_balance": ["white_balance_automatic", "white_balance_temperature_auto", "auto_white_balance"],
        "blue_balance": ["white_balance_automatic", "white_balance_temperature_auto", "auto_white_balance"],
        "gain": ["gain_automatic", "autogain", "auto_gain"],
        "hue": ["hue_automatic", "hue_auto"],
    ]

    /// The auto control that makes `control` inactive, from the table, else an auto control
    /// sharing its first word ("focus_…").
    package static func governor(of control: CameraControl, in controls: [CameraControl]) -> CameraControl? {
        for name in governors[control.name] ?? [] {
            if let found = controls.first(where: { $0.name == name }) { return found }
        }
        let word = control.name.split(separator: "_").first.map(String.init) ?? control.name
        return controls.first { isAuto($0) && $0.name != control.name && $0.name.contains(word) }
    }

    /// The error for setting a control the driver flags inactive: which auto control holds it,
    /// at what value, and the setting that frees it.
    package static func inactiveError(_ control: CameraControl, controls: [CameraControl],
                                     hint: String = "--control ") -> RecError {
        guard let auto = governor(of: control, in: controls) else {
            return .usage("\(control.name) is inactive on this camera now (another control governs it); `rec devices` shows which controls are set to auto")
        }
        let current = auto.value.map { "'\(auto.describe($0))'" } ?? "on"
        return .usage("\(control.name) is inactive while \(auto.name) is \(current); add \(hint)\(auto.name)=\(manualValue(of: auto))")
    }

    /// The value of an auto control that hands over to manual: false, or the menu's "Manual" entry.
    package static func manualValue(of auto: CameraControl) -> String {
        if auto.kind == .boolean { return "false" }
        if let manual = auto.menu.first(where: { $0.name.lowercased().contains("manual") }) { return shortName(manual, in: auto) }
        return "\(auto.minimum)"
    }

    /// The shortest way to write a menu entry that still picks it alone: its first word
    /// ("manual" for "Manual Mode") when no other entry starts so, else its whole name.
    static func shortName(_ item: CameraControl.MenuItem, in c: CameraControl) -> String {
        let full = CameraControl.variableName(item.name)
        guard let first = full.split(separator: "_").first.map(String.init) else { return "\(item.index)" }
        let clashes = c.menu.filter { CameraControl.variableName($0.name).split(separator: "_").first.map(String.init) == first }
        return clashes.count == 1 ? first : full
    }
}
