import Media
import RecCore
import Testing
import TestPool

/// Whether a recording stores the camera's frames as they come is a property of its settings,
/// decided once from the preset; code downstream asks `copiesInput`, not the encoder's name.
@Suite(.blocking) struct EncoderSettingsCopyTests {
    static func settings(_ name: String) throws -> EncoderSettings {
        let entry = try #require(try PresetLibrary.builtins().entries.first { $0.preset.name == name })
        return EncoderSettings(preset: entry.preset)
    }

    @Test func theCopyPresetCopiesAndHasNoCodecOptions() throws {
        let copy = try Self.settings("camera-copy")
        #expect(copy.copiesInput)
        #expect(copy.codecOptions.isEmpty)
    }

    @Test(arguments: ["default", "mjpeg", "lossless"])
    func anEncodingPresetDoesNot(name: String) throws {
        let settings = try Self.settings(name)
        #expect(!settings.copiesInput)
        #expect(!settings.codecOptions.isEmpty)
    }
}
