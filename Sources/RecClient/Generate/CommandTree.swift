/// The command tree as the man page and completion generators read it: every command with the
/// names that lead to it, and what each argument's value can be completed with. Everything is
/// derived from the declarations (`configuration`, `arguments`), so an option added to a command
/// appears in help, man pages and completions at once.
package struct CommandTree: Sendable {
    /// One command and the words that lead to it: `["rec", "presets", "show"]`.
    package struct Node: Sendable {
        package var path: [String]
        package var command: any ParsableCommand.Type
        /// The declared arguments, hidden ones left out.
        package var arguments: [ArgumentSpec] { command.arguments.filter { !$0.isHidden } }
        package var options: [ArgumentSpec] { arguments.filter { $0.kind != .positional } }
        package var positionals: [ArgumentSpec] { arguments.filter { $0.kind == .positional } }
        /// The subcommand names, plus `help` at the root as the runner accepts it.
        package var subcommandNames: [String] {
            let names = command.configuration.subcommands.map { $0.configuration.name }
            return path.count == 1 && !names.isEmpty ? names + ["help"] : names
        }
        /// `rec presets show` → `rec-presets-show`, the man page's name.
        package var pageName: String { path.joined(separator: "-") }
        package var commandLine: String { path.joined(separator: " ") }
    }

    /// Every command, the root first, parents before their subcommands.
    package let nodes: [Node]

    package init(root: any ParsableCommand.Type) {
        func walk(_ command: any ParsableCommand.Type, _ parent: [String]) -> [Node] {
            let path = parent + [command.configuration.name]
            return [Node(path: path, command: command)] + command.configuration.subcommands.flatMap { walk($0, path) }
        }
        nodes = walk(root, [])
    }

    package var root: Node { nodes[0] }
}

/// What a value can be completed with, read from the argument's declaration: its choices, or
/// what its name or value name says it holds (`--session <name>`, `--preset <name>`,
/// `--source <source>`, `-o <file>`, a positional `<input>`).
package enum ValueCompletion: Sendable, Equatable {
    case none
    case choices([String])
    case files
    /// Running session names, from `rec --complete sessions`.
    case sessions
    /// Preset names, from `rec --complete presets`.
    case presets
    /// Camera nodes and `test` (from `rec --complete cameras`), and files.
    case sources

    /// The dynamic lists `rec --complete` answers.
    package static let dynamicKinds = ["sessions", "presets", "cameras"]

    package init(_ spec: ArgumentSpec, in node: CommandTree.Node) {
        if !spec.choices.isEmpty {
            self = .choices(spec.choices)
        } else if spec.kind == .flag {
            self = .none
        } else if spec.name == "session" {
            self = .sessions
        } else if spec.name == "preset" || (spec.kind == .positional && node.path.last == "show" && node.path.contains("presets")) {
            self = .presets
        } else if spec.name == "source" {
            self = .sources
        } else if spec.valueName == "file" || spec.valueName == "folder" || spec.kind == .positional {
            self = .files
        } else {
            self = .none
        }
    }
}
