import RecCore

/// Arguments that several commands declare the same way.
extension ArgumentSpec {
    package static let json = flag("json", help: "Print the result as JSON for scripts.")
    package static let force = flag("force", help: "Overwrite the output file if it exists.")
    package static let session = option(
        "session", value: "name", default: "default", help: "The name of the background session to talk to."
    )
    package static let source = option(
        "source", value: "source",
        help: "Where frames come from: a camera such as /dev/video0, 'test' for a test pattern, or a video file."
    )
    package static let preset = option("preset", value: "name", help: "The encoding preset to use; 'rec presets' lists them.")
    package static let size = option("size", value: "WxH", help: "The frame size to capture, such as 1280x720.")
    package static let fps = option("fps", value: "rate", help: "The frame rate to capture at, in frames per second.")
    package static let filter = option(
        "filter", value: "filter", repeatable: true,
        help: "An FFmpeg filter to apply to every frame, such as hflip; repeat it to chain filters."
    )
    package static let duration = option("duration", value: "time", help: "Stop after this long, such as 10s or 1m30s.")
    package static let from = option("from", value: "time", help: "Where the clip starts, such as 12s, 1m12.5s or 00:01:12.5.")
    package static let to = option("to", value: "time", help: "Where the clip ends; the frame at this time is not included.")
    package static let last = option("last", value: "time", help: "Take this much from the end instead of giving --from and --to.")
    package static let keyframe = flag(
        "keyframe", help: "Start at the keyframe at or before --from and copy packets without re-encoding."
    )

    /// `--upload` of `rec record`, `rec start` and `rec save` (docs/OFFSITE.md).
    package static let upload = option(
        "upload", value: "dest",
        help: "Copy finished files and saved clips off the box to this rclone remote path (such as backup:cams) or folder."
    )
    /// `--upload-limit` of `rec record` and `rec start`.
    package static let uploadLimit = option(
        "upload-limit", value: "rate", help: "The most bandwidth the copies may take, as rclone's --bwlimit: 2M is 2 MiB/s, a number alone KiB/s."
    )

    /// `-o, --output <file>` with the command's own description of the file.
    package static func output(_ help: String) -> ArgumentSpec {
        var spec = outputFile
        spec.help = help
        return spec
    }
    /// `--output` as every command declares it but for its sentence: read it with
    /// `values.value(.outputFile)`, and the configuration's `output` pattern applies to it.
    package static let outputFile = option("output", short: "o", value: "file", help: "The file to write.")
    /// `rec start --no-file`; a configured `output` pattern does not apply with it.
    package static let noFile = flag("no-file", help: "Keep frames only in the buffer and write no recording file.")
    /// `--segment` of `rec record` and `rec start`; a configured `output` pattern keeps its time fields with it.
    package static let segment = option(
        "segment", value: "time",
        help: "Start a new file every this long, such as 1h, named with its start time (-o may use %Y %m %d %H %M %S)."
    )
}
