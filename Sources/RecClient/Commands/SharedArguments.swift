import RecCore

/// Arguments that several commands declare the same way.
extension ArgumentSpec {
    public static let json = flag("json", help: "Print the result as JSON for scripts.")
    public static let force = flag("force", help: "Overwrite the output file if it exists.")
    public static let session = option(
        "session", value: "name", default: "default", help: "The name of the background session to talk to."
    )
    public static let source = option(
        "source", value: "source",
        help: "Where frames come from: a camera such as /dev/video0, 'test' for a test pattern, or a video file."
    )
    public static let preset = option("preset", value: "name", help: "The encoding preset to use; 'rec presets' lists them.")
    public static let size = option("size", value: "WxH", help: "The frame size to capture, such as 1280x720.")
    public static let fps = option("fps", value: "rate", help: "The frame rate to capture at, in frames per second.")
    public static let filter = option(
        "filter", value: "filter", repeatable: true,
        help: "An FFmpeg filter to apply to every frame, such as hflip; repeat it to chain filters."
    )
    public static let duration = option("duration", value: "time", help: "Stop after this long, such as 10s or 1m30s.")
    public static let from = option("from", value: "time", help: "Where the clip starts, such as 12s, 1m12.5s or 00:01:12.5.")
    public static let to = option("to", value: "time", help: "Where the clip ends; the frame at this time is not included.")
    public static let last = option("last", value: "time", help: "Take this much from the end instead of giving --from and --to.")
    public static let keyframe = flag(
        "keyframe", help: "Start at the keyframe at or before --from and copy packets without re-encoding."
    )

    /// `-o, --output <file>` with the command's own description of the file.
    public static func output(_ help: String) -> ArgumentSpec {
        option("output", short: "o", value: "file", help: help)
    }
}
