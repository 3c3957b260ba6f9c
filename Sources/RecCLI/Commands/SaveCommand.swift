import RecCore

/// `rec save`: write part of a running session's buffer to a file.
struct SaveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "save",
        abstract: "Save frames from a running session's buffer into a clip.",
        examples: [
            Example("Save the last 20 seconds.", "rec save --last 20s -o clip.mkv"),
        ]
    )
    static let arguments: [ArgumentSpec] = [
        .from, .to, .last,
        .output("The file to write the clip to."),
        .keyframe,
        .flag("clear", help: "Empty the buffer after saving so the next save starts fresh."),
        .json, .session, .force,
    ]

    var range: ClipRange
    var output: String?
    var keyframe: Bool
    var clear: Bool
    var json: Bool
    var session: String
    var force: Bool

    init(_ values: ParsedValues) throws(RecError) {
        range = try ClipRange(values)
        output = try values.value("output")
        keyframe = values.flag("keyframe")
        clear = values.flag("clear")
        json = values.flag("json")
        session = try values.require("session")
        force = values.flag("force")
    }

    func validate() throws(RecError) {
        try range.validate()
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        throw .notImplemented("save")
    }
}
