import RecCore

/// `rec status`: report on background sessions.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "status",
        abstract: "Show what a background session is recording and how much its buffer holds."
    )
    static let arguments: [ArgumentSpec] = [
        .session,
        .flag("all", help: "Show every running session."),
        .json,
    ]

    var session: String
    var all: Bool
    var json: Bool

    init(_ values: ParsedValues) throws(RecError) {
        session = try values.require("session")
        all = values.flag("all")
        json = values.flag("json")
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        throw .notImplemented("status")
    }
}
