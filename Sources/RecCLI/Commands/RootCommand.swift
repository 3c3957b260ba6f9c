import RecClient
import RecCore

/// `rec` itself: lists the subcommands, and prints the version with `--version`.
struct RootCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "rec",
        abstract: "Record video frames and cut frame-exact clips.",
        subcommands: [
            RecordCommand.self, TrimCommand.self, StartCommand.self,
        ] + ClientCommands.session + [
            PresetsCommand.self, DevicesCommand.self,
        ]
    )
    static let arguments: [ArgumentSpec] = [
        .flag("version", help: "Show the version."),
    ]

    var showVersion: Bool

    init(_ values: ParsedValues) {
        showVersion = values.flag("version")
    }

    /// `rec --version` prints the version; plain `rec` prints help to stderr and fails.
    func run(_ context: CommandContext) -> Int32 {
        if showVersion {
            context.console.print("rec \(RecCLI.version)")
            return 0
        }
        context.console.writeError(HelpFormatter.help(for: [RootCommand.self]))
        return RecError.Code.usage.exitStatus
    }
}
