import RecCore

/// What a preset decides for a recording: encoder settings, keyframe interval, filter, container,
/// and an optional size and rate for sources that take them.
package struct EncodingChoice: Sendable {
    package var name: String
    package var settings: EncoderSettings
    package var keyframeSeconds: Double
    package var filter: String?
    package var container: ContainerFormat
    package var size: (width: Int, height: Int)?
    package var fps: Int?
    /// The preset's `controls`.
    package var controls: [ControlSetting]
    /// How the preset encodes sound (its audio keys over the container's default); nil when it
    /// says `"audio": "none"`.
    package var audio: AudioEncoding?

    /// Loads the built-in and user presets, resolves `--preset` (a name or a file), checks it
    /// against this FFmpeg and the machine's hardware (`hardware`), and turns it into settings.
    package static func resolve(preset argument: String?, environment: [String: String],
                               hardware: HardwareProbe) throws(RecError) -> EncodingChoice {
        let library = try PresetLibrary.load(environment: environment, files: .local)
        let entry = try library.resolve(argument ?? "default", files: .local)
        let preset = entry.preset
        try EncoderCatalog.validate(preset, origin: entry.source.origin)
        try require(preset, hardware: hardware)
        return EncodingChoice(preset)
    }

    /// Throws when `preset` needs hardware this machine lacks, naming what is missing.
    package static func require(_ preset: Preset, hardware: HardwareProbe) throws(RecError) {
        if let problem = HardwareCheck.check(encoder: preset.encoder, probe: hardware).problem {
            throw .runtime("preset '\(preset.name)': \(problem)")
        }
    }

    package init(_ preset: Preset) {
        name = preset.name
        settings = EncoderSettings(preset: preset)
        keyframeSeconds = preset.keyframeInterval
        filter = preset.filter
        container = preset.container
        size = preset.size.map { ($0.width, $0.height) }
        fps = preset.fps.map { Int(($0.doubleValue).rounded()) }
        controls = preset.controls
        audio = preset.audioEncoding
    }
}
