import RecClient
import TrimCLI
import RecCore

/// `rec` itself: lists the subcommands, and prints the version with `--version`. Its hidden
/// options are for install scripts and shell completions: `--generate-manual DIR`,
/// `--generate-completion-script SHELL`, `--complete sessions|presets|cameras`.
struct RootCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "rec",
        abstract: "Record video frames and cut frame-exact clips.",
        subcommands: [
            RecordCommand.self, TrimCommand.self, StartCommand.self,
        ] + ClientCommands.session + [
            ReviewCommand.self, PresetsCommand.self, DevicesCommand.self, ProbeCommand.self, ConfigCommand.self,
        ]
    )
    static let arguments: [ArgumentSpec] = [
        .version, .generateManual, .completionScript, .complete,
    ]

    var showVersion: Bool
    var manualFolder: String?
    var completionShell: String?
    var completeKind: String?

    init(_ values: ParsedValues) throws(RecError) {
        showVersion = values.flag(.version)
        manualFolder = try values.value(.generateManual)
        completionShell = try values.value(.completionScript)
        completeKind = try values.value(.complete)
    }

    /// `rec --version` prints the version; plain `rec` prints help to stderr and fails.
    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        if showVersion {
            context.console.print("rec \(RecCLI.version)")
            return 0
        }
        if let manualFolder {
            try Generated.writeManual(into: manualFolder)
            return 0
        }
        if let completionShell {
            context.console.writeOutput(Generated.completionScript(completionShell))
            return 0
        }
        if let completeKind {
            for name in Generated.names(completeKind, environment: context.environment) { context.console.print(name) }
            return 0
        }
        context.console.writeError(HelpFormatter.help(for: [RootCommand.self]))
        return RecError.Code.usage.exitStatus
    }
}

private extension ArgumentSpec {
    static let version = flag("version", help: "Show the version.")
    static let generateManual = option(
        "generate-manual", value: "folder", help: "Write the man pages (rec.1, rec-trim.1, …) into this folder."
    ).hidden()
    static let completionScript = option(
        "generate-completion-script", value: "shell", choices: ["bash", "zsh", "fish"],
        help: "Print the completion script for this shell."
    ).hidden()
    static let complete = option(
        "complete", value: "what", choices: ValueCompletion.dynamicKinds, help: "Print the names a completion offers, one a line."
    ).hidden()
}
