import Media
import RecClient
import RecCore

/// What a preset decides for a recording: encoder settings, keyframe interval, filter, container,
/// and an optional size and rate for sources that take them.
struct EncodingChoice: Sendable {
    var name: String
    var settings: EncoderSettings
    var keyframeSeconds: Double
    var filter: String?
    var container: ContainerFormat
    var size: (width: Int, height: Int)?
    var fps: Int?
    /// The preset's `controls`.
    var controls: [ControlSetting]
    /// How the preset encodes sound (its audio keys over the container's default); nil when it
    /// says `"audio": "none"`.
    var audio: AudioEncoding?

    /// Loads the built-in and user presets, resolves `--preset` (a name or a file), checks it
    /// against this FFmpeg, and turns it into settings.
    static func resolve(preset argument: String?, environment: [String: String]) throws(RecError) -> EncodingChoice {
        let library = try PresetLibrary.load(environment: environment, files: .local)
        let entry = try library.resolve(argument ?? "default", files: .local)
        let preset = entry.preset
        try EncoderCatalog.validate(preset, origin: entry.source.origin)
        try HardwareSupport.require(preset)
        return EncodingChoice(preset)
    }

    init(_ preset: Preset) {
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
