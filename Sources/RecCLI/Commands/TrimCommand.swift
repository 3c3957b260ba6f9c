import RecCore

/// `rec trim`: cut a frame-exact clip out of a recording.
struct TrimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "trim",
        abstract: "Cut a frame-exact clip out of a recording.",
        discussion: "Without --keyframe or --reencode, rec copies whole groups of pictures and re-encodes only where the clip starts between keyframes.",
        examples: [
            Example("Cut seconds 12 to 15 of a recording.", "rec trim in.mkv --from 12s --to 15s -o clip.mkv"),
            Example("Show what the last five seconds would take without writing a file.", "rec trim in.mkv --last 5s --dry-run"),
        ]
    )
    static let arguments: [ArgumentSpec] = [
        .positional("input", help: "The recording to cut."),
        .from, .to, .last,
        .output("The file to write the clip to."),
        .keyframe,
        .flag("reencode", help: "Re-encode the whole clip instead of copying packets."),
        .preset,
        .flag("dry-run", help: "Print which frames would be copied or re-encoded, and write nothing."),
        .force, .json,
    ]

    var input: String
    var range: ClipRange
    var output: String?
    var keyframe: Bool
    var reencode: Bool
    var preset: String?
    var dryRun: Bool
    var force: Bool
    var json: Bool

    init(_ values: ParsedValues) throws(RecError) {
        input = try values.require("input")
        range = try ClipRange(values)
        output = try values.value("output")
        keyframe = values.flag("keyframe")
        reencode = values.flag("reencode")
        preset = try values.value("preset")
        dryRun = values.flag("dry-run")
        force = values.flag("force")
        json = values.flag("json")
    }

    func validate() throws(RecError) {
        try range.validate()
        if keyframe, reencode {
            throw .usage("--keyframe copies packets and --reencode re-encodes them; give only one")
        }
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        throw .notImplemented("trim")
    }
}
