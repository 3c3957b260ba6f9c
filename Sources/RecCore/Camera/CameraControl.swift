/// One camera control as the driver describes it (`VIDIOC_QUERY_EXT_CTRL`, `VIDIOC_QUERYMENU`) with
/// its current value: brightness, exposure, focus, white balance…
package struct CameraControl: Sendable, Hashable {
    /// The control types rec shows (`V4L2_CTRL_TYPE_*`); only integer, boolean, menu and integer
    /// menu controls can be set from the command line.
    package enum Kind: String, Sendable, Hashable {
        case integer, boolean, menu
        case integerMenu = "intmenu"
        case button, integer64 = "int64", string, bitmask, other

        /// v4l2-ctl's short name for the type: "int", "bool", "menu", "intmenu"….
        package var shortName: String {
            switch self {
            case .integer: "int"
            case .boolean: "bool"
            case .string: "str"
            default: rawValue
            }
        }

        /// Whether `name=value` can set it.
        package var isSettable: Bool { [.integer, .boolean, .menu, .integerMenu].contains(self) }
    }

    /// One entry of a menu control: its index (the value to set) and its name ("Manual Mode"),
    /// or for an integer menu the number it stands for, as text.
    package struct MenuItem: Sendable, Hashable {
        package var index: Int64
        package var name: String

        package init(index: Int64, name: String) {
            self.index = index
            self.name = name
        }
    }

    /// The state bits of `V4L2_CTRL_FLAG_*` that matter to a user.
    package struct Flags: OptionSet, Sendable, Hashable {
        package var rawValue: UInt32
        package init(rawValue: UInt32) { self.rawValue = rawValue }

        /// V4L2_CTRL_FLAG_READ_ONLY: it reports, it cannot be set.
        package static let readOnly = Flags(rawValue: 1 << 0)
        /// V4L2_CTRL_FLAG_INACTIVE: another control (an auto mode) governs it now.
        package static let inactive = Flags(rawValue: 1 << 1)
        /// V4L2_CTRL_FLAG_GRABBED: cannot change while streaming.
        package static let grabbed = Flags(rawValue: 1 << 2)
        /// V4L2_CTRL_FLAG_WRITE_ONLY: it has no value to read.
        package static let writeOnly = Flags(rawValue: 1 << 3)
        /// V4L2_CTRL_FLAG_VOLATILE: the hardware changes it by itself (e.g. gain under auto).
        package static let volatile = Flags(rawValue: 1 << 4)
    }

    /// The control's id (`V4L2_CID_*`).
    package var id: UInt32
    /// The name as v4l2-ctl prints it: "exposure_time_absolute".
    package var name: String
    /// The driver's own name: "Exposure Time, Absolute".
    package var label: String
    package var kind: Kind
    package var minimum: Int64
    package var maximum: Int64
    package var step: Int64
    package var defaultValue: Int64
    /// The current value; nil when it cannot be read (write-only, buttons, strings).
    package var value: Int64?
    package var flags: Flags
    /// Menu entries in index order (menus and integer menus only; indices may have gaps).
    package var menu: [MenuItem]

    package init(id: UInt32, label: String, kind: Kind, minimum: Int64 = 0, maximum: Int64 = 0, step: Int64 = 1,
                defaultValue: Int64 = 0, value: Int64? = nil, flags: Flags = [], menu: [MenuItem] = []) {
        self.id = id
        self.name = Self.variableName(label)
        self.label = label
        self.kind = kind
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.defaultValue = defaultValue
        self.value = value
        self.flags = flags
        self.menu = menu
    }

    /// v4l2-ctl's spelling of a driver's control name: letters and digits lower-cased, every run
    /// of anything else one underscore, none at the ends ("Focus, Automatic Continuous" →
    /// "focus_automatic_continuous").
    package static func variableName(_ label: String) -> String {
        var out = ""
        var pendingUnderscore = false
        for character in label {
            if character.isASCII && (character.isLetter || character.isNumber) {
                if pendingUnderscore { out.append("_") }
                pendingUnderscore = false
                out.append(Character(character.lowercased()))
            } else if !out.isEmpty {
                pendingUnderscore = true
            }
        }
        return out
    }

    /// The menu entry's name for a value, if this is a menu and it has one.
    package func menuName(_ value: Int64) -> String? { menu.first { $0.index == value }?.name }

    /// A value as the user would write it: a menu entry's name, true/false, or the number.
    package func describe(_ value: Int64) -> String {
        switch kind {
        case .boolean: value != 0 ? "true" : "false"
        case .menu, .integerMenu: menuName(value) ?? "\(value)"
        default: "\(value)"
        }
    }

    /// "min=0 max=255 step=1 default=128", the range part of a listing.
    package var rangeText: String {
        switch kind {
        case .boolean: "default=\(describe(defaultValue))"
        case .menu, .integerMenu:
            "default=\(defaultValue) (\(describe(defaultValue)))"
        default: "min=\(minimum) max=\(maximum) step=\(step) default=\(defaultValue)"
        }
    }
}
