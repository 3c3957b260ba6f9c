import RecCore

/// `rec presets`: list the encoding presets.
struct PresetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "presets",
        abstract: "List the encoding presets.",
        subcommands: [PresetsShowCommand.self]
    )
    static let arguments: [ArgumentSpec] = [.json]

    var json: Bool

    init(_ values: ParsedValues) throws(RecError) {
        json = values.flag("json")
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        throw .notImplemented("presets")
    }
}
