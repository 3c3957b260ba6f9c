import RecCore

/// `rec snapshot`: save the latest frame of a session as a picture.
struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "snapshot",
        abstract: "Save the latest frame of a running session as a picture."
    )
    static let arguments: [ArgumentSpec] = [
        .output("The picture to write; its extension picks the format, such as .png or .jpg."),
        .session, .force,
    ]

    var output: String?
    var session: String
    var force: Bool

    init(_ values: ParsedValues) throws(RecError) {
        output = try values.value("output")
        session = try values.require("session")
        force = values.flag("force")
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        throw .notImplemented("snapshot")
    }
}
