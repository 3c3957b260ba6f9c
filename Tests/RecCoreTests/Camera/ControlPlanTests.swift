import RecCore
import Testing

/// The camera-control policy without a camera: parsing, names, values, order and advice.
@Suite struct ControlPlanTests {
    static let autoExposure = CameraControl(id: 1, label: "Auto Exposure", kind: .menu, minimum: 0, maximum: 3, defaultValue: 3,
                                            value: 3, menu: [.init(index: 1, name: "Manual Mode"), .init(index: 3, name: "Aperture Priority Mode")])
    static let exposure = CameraControl(id: 2, label: "Exposure Time, Absolute", kind: .integer, minimum: 3, maximum: 2047,
                                        defaultValue: 250, value: 250, flags: [.inactive])
    static let focus = CameraControl(id: 3, label: "Focus, Absolute", kind: .integer, minimum: 0, maximum: 250, step: 5, value: 0)
    static let focusAuto = CameraControl(id: 4, label: "Focus, Automatic Continuous", kind: .boolean, maximum: 1, defaultValue: 1, value: 1)
    static let brightness = CameraControl(id: 5, label: "Brightness", kind: .integer, minimum: 0, maximum: 255, defaultValue: 128, value: 128)
    static let privacy = CameraControl(id: 6, label: "Privacy", kind: .boolean, maximum: 1, value: 0, flags: [.readOnly])
    static let all = [brightness, autoExposure, exposure, focus, focusAuto, privacy]

    @Test(arguments: [("Exposure Time, Absolute", "exposure_time_absolute"), ("Focus, Automatic Continuous", "focus_automatic_continuous"),
                      ("White Balance Temperature", "white_balance_temperature"), ("  Gain (dB) ", "gain_db")])
    func namesAreSpeltAsV4L2CtlDoes(label: String, name: String) {
        #expect(CameraControl.variableName(label) == name)
    }

    @Test func settingsParseAndRejectWhatIsNotNameEqualsValue() throws {
        #expect(try ControlSetting.parse(" Brightness = 10 ") == ControlSetting(name: "brightness", value: "10"))
        for bad in ["brightness", "=3", "bright-ness=3", "brightness="] {
            #expect(throws: RecError.self) { try ControlSetting.parse(bad) }
        }
    }

    @Test func autoControlsComeFirstWhateverTheOrderGiven() throws {
        let settings = [ControlSetting(name: "exposure_time_absolute", value: "500"), ControlSetting(name: "brightness", value: "10"),
                        ControlSetting(name: "auto_exposure", value: "manual"), ControlSetting(name: "focus_automatic_continuous", value: "false")]
        let plan = try ControlPlan.resolve(settings, against: Self.all, camera: "/dev/video0")
        #expect(plan.map(\.control.name) == ["auto_exposure", "focus_automatic_continuous", "exposure_time_absolute", "brightness"])
        #expect(plan.map(\.value) == [1, 0, 500, 10])
    }

    @Test(arguments: [("manual", 1), ("Manual Mode", 1), ("manual_mode", 1), ("aperture", 3), ("3", 3)])
    func menusTakeNamesOrIndices(text: String, value: Int64) throws {
        #expect(try ControlPlan.value(text, for: Self.autoExposure) == value)
    }

    @Test(arguments: [("true", 1), ("1", 1), ("on", 1), ("false", 0), ("0", 0), ("off", 0)])
    func booleansTakeWords(text: String, value: Int64) throws {
        #expect(try ControlPlan.value(text, for: Self.focusAuto) == value)
    }

    @Test(arguments: [
        ("auto_exposure", "2", "offers 1 (Manual Mode), 3 (Aperture Priority Mode)"),
        ("auto_exposure", "shutter", "no entry 'shutter'"),
        ("exposure_time_absolute", "5000", "takes 3 to 2047"),
        ("exposure_time_absolute", "fast", "whole number from 3 to 2047"),
        ("focus_absolute", "12", "try 10 or 15"),
        ("focus_automatic_continuous", "maybe", "=true or"),
        ("privacy", "true", "read-only"),
        ("exposure", "100", "did you mean"),
    ])
    func badValuesSayWhatIsValid(name: String, value: String, expected: String) {
        let error = #expect(throws: RecError.self) {
            try ControlPlan.resolve([ControlSetting(name: name, value: value)], against: Self.all, camera: "/dev/video0")
        }
        #expect(error?.code == .usage)
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
    }

    @Test func aControlGivenTwiceIsRefused() {
        let twice = [ControlSetting(name: "brightness", value: "1"), ControlSetting(name: "brightness", value: "2")]
        #expect(throws: RecError.self) { try ControlPlan.resolve(twice, against: Self.all, camera: "cam") }
    }

    @Test func inactiveManualControlNamesItsAutoControlAndTheFix() {
        let error = ControlPlan.inactiveError(Self.exposure, controls: Self.all)
        #expect(error.message == "exposure_time_absolute is inactive while auto_exposure is 'Aperture Priority Mode'; add --control auto_exposure=manual")
        let focusError = ControlPlan.inactiveError(Self.focus, controls: Self.all, hint: "")
        #expect(focusError.message == "focus_absolute is inactive while focus_automatic_continuous is 'true'; add focus_automatic_continuous=false")
    }

    @Test func commandLineSettingsReplaceThePresetsByName() {
        let preset = [ControlSetting(name: "auto_exposure", value: "manual"), ControlSetting(name: "brightness", value: "10")]
        let merged = ControlSetting.merged(preset, [ControlSetting(name: "brightness", value: "20"), ControlSetting(name: "gain", value: "3")])
        #expect(merged.map(\.description) == ["auto_exposure=manual", "brightness=20", "gain=3"])
    }

    @Test func presetControlsParseInOrderAndPrintBack() throws {
        let text = """
        {"container": "mkv", "encoder": "mjpeg", "controls": {"auto_exposure": "manual", "exposure_time_absolute": 250, "focus_automatic_continuous": false}}
        """
        let preset = try Preset.parse(text, name: "desk", origin: "test")
        #expect(preset.controls.map(\.description) == ["auto_exposure=manual", "exposure_time_absolute=250", "focus_automatic_continuous=false"])
        #expect(try Preset.parse(preset.jsonText, name: "desk", origin: "again") == preset)
    }

    @Test(arguments: [
        ("{\"Brightness\": 3}", "lower-case with underscores"),
        ("{\"brightness\": [3]}", "must be a menu entry's name, a whole number or true/false"),
        ("[\"brightness=3\"]", "must be an object"),
    ])
    func badPresetControlsAreRefused(controls: String, expected: String) {
        let text = "{\"container\": \"mkv\", \"encoder\": \"mjpeg\", \"controls\": \(controls)}"
        let error = #expect(throws: RecError.self) { try Preset.parse(text, name: "bad", origin: "test") }
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
    }
}
