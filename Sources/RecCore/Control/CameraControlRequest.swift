/// The fields of a `control` request: camera controls to set on the session's camera, in order
/// (it applies auto controls first); none asks for every control's current value.
package struct CameraControlRequest: Sendable, Equatable, Codable {
    package var settings: [ControlSetting]

    /// The most settings one request may carry.
    package static let maxSettings = 64

    package init(settings: [ControlSetting] = []) {
        self.settings = settings
    }

    private enum CodingKeys: String, CodingKey {
        case settings
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        settings = try c.decodeIfPresent([ControlSetting].self, forKey: .settings) ?? []
    }

    /// The checks JSON decoding cannot make; nil when the request makes sense.
    package func problem() -> String? {
        if settings.count > Self.maxSettings { return "at most \(Self.maxSettings) settings per request, not \(settings.count)" }
        for s in settings {
            guard let parsed = try? ControlSetting.parse("\(s.name)=\(s.value)"), parsed.name == s.name else {
                return "'\(s.name)=\(s.value)' is not a control setting: names are lower-case with underscores and values are not empty"
            }
        }
        return nil
    }
}

/// The answer to `control`: the controls set, as they now are, or every control when none was set.
package struct CameraControlReport: Sendable, Equatable, Codable {
    package var controls: [ControlState]

    package init(controls: [ControlState]) {
        self.controls = controls
    }
}
