/// Camera controls as `rec devices` and `rec control` print them: one line per control in
/// v4l2-ctl's manner (name, type, range, default, value, state), menu entries beneath; or JSON.
package enum ControlListFormatter {
    /// "    brightness              int     min=0 max=255 step=1 default=128 value=128", menu
    /// entries indented below their control; `indent` spaces before each line.
    package static func lines(_ controls: [CameraControl], indent: Int = 4) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let width = controls.map(\.name.count).max() ?? 0
        var out: [String] = []
        for c in controls {
            var line = pad + c.name + String(repeating: " ", count: width - c.name.count)
            line += "  " + c.kind.shortName + String(repeating: " ", count: max(1, 8 - c.kind.shortName.count))
            line += c.kind.isSettable ? c.rangeText : ""
            if let value = c.value { line += " value=\(value)" + (c.menu.isEmpty && c.kind != .boolean ? "" : " (\(c.describe(value)))") }
            let states = state(c)
            if !states.isEmpty { line += "  (\(states.joined(separator: ", ")))" }
            out.append(line)
            for item in c.menu { out.append(pad + "    \(item.index): \(item.name)") }
        }
        return out
    }

    /// The flags a user needs to know: read-only, inactive (an auto control governs it), grabbed.
    static func state(_ c: CameraControl) -> [String] {
        var states: [String] = []
        if c.flags.contains(.readOnly) { states.append("read-only") }
        if c.flags.contains(.inactive) { states.append("inactive") }
        if c.flags.contains(.grabbed) { states.append("fixed while streaming") }
        return states
    }
}

/// One control as `--json` output and the control protocol carry it: v4l2-ctl's name, the
/// driver's label, the type, range and default (settable types only), the value and its menu name
/// or true/false, menu entries, and whether it is read-only or inactive.
package struct ControlState: Codable, Sendable, Equatable {
    package struct Item: Codable, Sendable, Equatable { public var value: Int64, name: String }
    package var name: String, label: String, type: String
    package var min: Int64?, max: Int64?, step: Int64?, `default`: Int64?, value: Int64?
    /// The value as a menu entry's name or true/false.
    package var valueName: String?
    package var menu: [Item]?
    package var readOnly: Bool, inactive: Bool

    package init(_ c: CameraControl) {
        (name, label, type) = (c.name, c.label, c.kind.rawValue)
        if c.kind.isSettable { (min, max, step, `default`) = (c.minimum, c.maximum, c.step, c.defaultValue) }
        value = c.value
        if let v = c.value, c.kind == .boolean || !c.menu.isEmpty { valueName = c.describe(v) }
        menu = c.menu.isEmpty ? nil : c.menu.map { Item(value: $0.index, name: $0.name) }
        (readOnly, inactive) = (c.flags.contains(.readOnly), c.flags.contains(.inactive))
    }

    /// The control back, for printing (its id is not carried, so 0).
    package var control: CameraControl {
        var flags: CameraControl.Flags = []
        if readOnly { flags.insert(.readOnly) }
        if inactive { flags.insert(.inactive) }
        var c = CameraControl(id: 0, label: label, kind: CameraControl.Kind(rawValue: type) ?? .other,
                              minimum: min ?? 0, maximum: max ?? 0, step: step ?? 1, defaultValue: `default` ?? 0, value: value,
                              flags: flags,
                              menu: (menu ?? []).map { CameraControl.MenuItem(index: $0.value, name: $0.name) })
        c.name = name
        return c
    }
}
