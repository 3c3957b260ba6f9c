import RecCore

/// `rec stop`: end a background session.
struct StopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "stop",
        abstract: "Stop a background session and finish its recording file."
    )
    static let arguments: [ArgumentSpec] = [.session, .json]

    var session: String
    var json: Bool

    init(_ values: ParsedValues) throws(RecError) {
        session = try values.require("session")
        json = values.flag("json")
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        throw .notImplemented("stop")
    }
}
