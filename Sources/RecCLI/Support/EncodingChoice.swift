import Media
import RecCore

/// What a preset decides for a recording: encoder settings, keyframe interval, filter, container.
struct EncodingChoice: Sendable {
    var name: String
    var settings: EncoderSettings
    var keyframeSeconds: Double
    var filter: String?
    var container: ContainerFormat
    var size: (width: Int, height: Int)?
    var fps: Int?

    static func resolve(preset: String?, environment: [String: String]) throws(RecError) -> EncodingChoice {
        let name = preset ?? "default"
        guard name == "default" else { throw .usage("unknown preset '\(name)'; 'rec presets' lists them") }
        return EncodingChoice(
            name: name,
            settings: EncoderSettings(encoder: "libx264", width: 0, height: 0, pixelFormat: .yuv420p,
                                      rateControl: .crf(23), speed: "veryfast"),
            keyframeSeconds: 1, filter: nil, container: .mp4)
    }
}
