import Media
import RecCore
import Testing
import TestPool

/// One mapping from a preset to libavcodec options serves both the encoder and preset validation.
@Suite(.blocking) struct EncoderSettingsPresetTests {
    static func parse(_ text: String) throws -> Preset {
        try Preset.parse(text, name: "test", origin: "test")
    }

    @Test func codecOptionsPutTheSettingsBeforeTheUsersOptions() throws {
        let preset = try Self.parse(#"{"container": "mp4", "encoder": "libx264", "crf": 18.5, "bframes": 0, "preset": "veryfast", "options": {"g": "10"}}"#)
        let options = EncoderSettings(preset: preset).codecOptions
        #expect(options.map { "\($0.key)=\($0.value)" } == ["g=30", "threads=auto", "bf=0", "crf=18.5", "b=0", "preset=veryfast", "g=10"])
        let mjpeg = try Self.parse(#"{"container": "mkv", "encoder": "mjpeg", "qscale": 3}"#)
        #expect(EncoderSettings(preset: mjpeg, frameRate: Rational(25, 1)).codecOptions.contains { $0 == ("global_quality", "354") })
    }

    @Test func copyHasNoCodecOptions() throws {
        let copy = try Self.parse(#"{"container": "mkv", "encoder": "copy", "size": "640x480", "fps": 30}"#)
        let settings = EncoderSettings(preset: copy)
        #expect(settings.codecOptions.isEmpty)
        #expect(settings.width == 640 && settings.frameRate == Rational(30, 1))
    }

    @Test func keyframeIntervalBecomesFramesAtThePresetsRate() throws {
        let preset = try Self.parse(#"{"container": "mkv", "encoder": "ffv1", "keyframe_interval": 2, "fps": 25}"#)
        #expect(EncoderSettings(preset: preset).keyframeInterval == 50)
    }
}
