import RecCore

/// One `rec` subcommand: its help, its declared arguments, and what it does.
///
/// The runner parses the command line against `arguments`, builds the command with
/// `init(_:)` (where it reads typed values), calls `validate()`, then `run(_:)`.
/// Usage errors from parsing, `init` and `validate` are printed with a usage hint.
package protocol ParsableCommand: Sendable {
    static var configuration: CommandConfiguration { get }
    /// Options, flags and positional arguments, in the order help lists them.
    static var arguments: [ArgumentSpec] { get }

    /// Whether options left off the command line take their values from the configuration file
    /// (`~/.config/rec/config.json`) before their built-in defaults.
    static var readsConfig: Bool { get }

    /// Reads typed values through the declarations, e.g. `fps = try values.value(.fps, as: Int.self)`.
    init(_ values: ParsedValues) throws(RecError)
    /// Checks that the values make sense together; throw `.usage` if not.
    func validate() throws(RecError)
    /// Does the work and returns the exit status (0 for success).
    func run(_ context: CommandContext) throws(RecError) -> Int32
}

extension ParsableCommand {
    package static var arguments: [ArgumentSpec] { [] }
    package static var readsConfig: Bool { false }
    package func validate() throws(RecError) {}

    /// Parses `arguments` (without the command names) into this command, as the runner does,
    /// and validates it. For tests: `try TrimCommand.parse(["in.mkv", "--from", "1s"])`.
    package static func parse(_ arguments: [String], config: UserConfig? = nil,
                             environment: [String: String] = [:]) throws(RecError) -> Self {
        var values = try ArgumentParser.parse(arguments, specs: Self.arguments)
        if let config { try values.apply(config, environment: environment) }
        let command = try Self(values)
        try command.validate()
        return command
    }
}

/// What help shows about a command and which subcommands it has.
package struct CommandConfiguration: Sendable {
    /// The word typed on the command line: `trim`.
    package var name: String
    /// One sentence ending with a period, shown as `OVERVIEW:` and in the parent's subcommand list.
    package var abstract: String
    /// Longer explanation shown under the overview; may be empty.
    package var discussion: String
    package var examples: [Example]
    package var subcommands: [any ParsableCommand.Type]

    package init(
        name: String,
        abstract: String,
        discussion: String = "",
        examples: [Example] = [],
        subcommands: [any ParsableCommand.Type] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.examples = examples
        self.subcommands = subcommands
    }
}

/// A worked example for help's `EXAMPLES:` section.
package struct Example: Sendable, Equatable {
    /// What the example does, one sentence: "Cut seconds 12 to 15 of a recording."
    package var summary: String
    /// The full command line: "rec trim in.mkv --from 12s --to 15s -o clip.mkv".
    package var command: String

    package init(_ summary: String, _ command: String) {
        self.summary = summary
        self.command = command
    }
}

/// What a running command may use: the console and the process environment.
package struct CommandContext: Sendable {
    package var console: Console
    package var environment: [String: String]

    package init(console: Console, environment: [String: String]) {
        self.console = console
        self.environment = environment
    }
}
