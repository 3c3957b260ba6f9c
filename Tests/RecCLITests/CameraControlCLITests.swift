import Foundation
import Media
import RecCore
@testable import RecCLI
import TrimCLI
import Testing
import TestPool

/// `--control` and `rec control` through the real binary. Sessions there can only use the
/// stand-in camera, so these cover the refusals; CaptureTests/CameraControlTests applies controls
/// to the fake camera through a session in-process.
@Suite(.blocking) struct CameraControlCLITests {
    @Test func aTestSessionHasNoControlsToSet() throws {
        let box = try BackgroundSessionTests.Sandbox()
        #expect(try box.rec(["start", "--source", "test:160x120@15", "--no-file"]).status == 0)
        try box.waitForFrames(2)
        let set = try box.rec(["control", "brightness=10"])
        #expect(set.status == 64)
        #expect(set.error.contains("has no camera controls; controls apply to V4L2 cameras"), "\(set.error)")
        let list = try box.rec(["control"])
        #expect(list.status == 64)
        try box.rec(["stop"])
    }

    @Test func controlsNeedACameraAndTheNameEqualsValueForm() throws {
        let box = try BackgroundSessionTests.Sandbox()
        let record = try box.rec(["record", "--source", "test", "--frames", "1", "--control", "brightness=3", "-o", "x.mkv"])
        #expect(record.status == 64)
        #expect(record.error.contains("apply only to V4L2 cameras"), "\(record.error)")
        let twice = try box.rec(["record", "--source", "/dev/video99", "--control", "gain=1", "--control", "gain=2", "-o", "y.mkv"])
        #expect(twice.status == 64)
        #expect(twice.error.contains("gain is given twice"), "\(twice.error)")
        let malformed = try box.rec(["control", "brightness"])
        #expect(malformed.status == 64)
        #expect(malformed.error.contains("write NAME=VALUE"), "\(malformed.error)")
    }
}

/// `rec presets` on simulated machines: which hardware presets run.
@Suite(.blocking) struct HardwarePresetListingTests {
    @Test func hardwarePresetsSayWhetherTheyRunHere() throws {
        let library = try PresetLibrary.builtins()
        let gpu = HardwareProbe(hasEncoder: { _ in true }, renderNodes: { ["/dev/dri/renderD128"] }, openDevice: { api, _ in api == .vaapi ? nil : "no" },
                                m2mEncoders: { _ in [] })
        let rows = PresetsCommand.hardware(library, probe: gpu)
        #expect(rows.map(\.name).sorted() == ["nvenc", "pi", "vaapi"])
        #expect(rows.first { $0.name == "vaapi" }?.device == "/dev/dri/renderD128")
        #expect(rows.first { $0.name == "pi" }?.problem?.contains("V4L2_CAP_VIDEO_M2M") == true)
        let preset = try #require(library.entries.first { $0.preset.name == "vaapi" }?.preset)
        let none = HardwareProbe(hasEncoder: { _ in true }, renderNodes: { [] }, openDevice: { _, _ in "no" }, m2mEncoders: { _ in [] })
        let error = #expect(throws: RecError.self) { try EncodingChoice.require(preset, hardware: none) }
        #expect(error?.code == .runtime)
        #expect(error?.message.hasPrefix("preset 'vaapi': h264_vaapi needs a VAAPI render node (/dev/dri/renderD128): none found") == true)
    }
}
