/// Renders help in swift-argument-parser's layout: `OVERVIEW:`, `USAGE:`, `ARGUMENTS:`,
/// `OPTIONS:`, `SUBCOMMANDS:` and `EXAMPLES:`, with aligned columns wrapped at 80.
package enum HelpFormatter {
    static let width = 80
    /// The column where help text starts after a label.
    static let helpColumn = 26

    /// The full help text for the last command of `path`, ending in a newline.
    package static func help(for path: [any ParsableCommand.Type]) -> String {
        let command = path[path.count - 1]
        let config = command.configuration
        let specs = command.arguments.filter { !$0.isHidden }
        var sections = [wrap(config.abstract, first: "OVERVIEW: ", indent: "")]
        if !config.discussion.isEmpty {
            sections.append(config.discussion.split(separator: "\n", omittingEmptySubsequences: false)
                .flatMap { wrap(String($0), indent: "") })
        }
        let prefix = "USAGE: " + commandName(path) + " "
        sections.append(wrap(usageTokens(path), first: prefix, indent: String(repeating: " ", count: prefix.count)))

        let arguments = specs.filter { $0.kind == .positional }
        if !arguments.isEmpty {
            sections.append(["ARGUMENTS:"] + arguments.flatMap { row($0.synopsis, describe($0)) })
        }
        let options = specs.filter { $0.kind != .positional }
        sections.append(
            ["OPTIONS:"] + options.flatMap { row(optionLabel($0), describe($0)) }
                + row("-h, --help", "Show help information.")
        )
        let subcommands = subcommandRows(path)
        if !subcommands.isEmpty {
            let helpPath = (["help"] + path.dropFirst().map { $0.configuration.name } + ["<subcommand>"])
            let see = "See '\(path[0].configuration.name) \(helpPath.joined(separator: " "))' for detailed help."
            sections.append(["SUBCOMMANDS:"] + subcommands + [""] + wrap(see, indent: "  "))
        }
        if !config.examples.isEmpty {
            let examples = config.examples.map { wrap($0.summary, indent: "  ") + ["    " + $0.command] }
            sections.append(["EXAMPLES:"] + examples.joined(separator: [""]))
        }
        return sections.map { $0.joined(separator: "\n") }.joined(separator: "\n\n") + "\n"
    }

    /// `rec presets show`.
    static func commandName(_ path: [any ParsableCommand.Type]) -> String {
        path.map { $0.configuration.name }.joined(separator: " ")
    }

    /// The one-line usage without `USAGE:`: `rec trim <input> [--from <time>] …`.
    static func usage(for path: [any ParsableCommand.Type]) -> String {
        commandName(path) + " " + usageTokens(path).joined(separator: " ")
    }

    private static func usageTokens(_ path: [any ParsableCommand.Type]) -> [String] {
        let command = path[path.count - 1]
        let hasSubcommands = !command.configuration.subcommands.isEmpty
        if path.count == 1, hasSubcommands { return ["<subcommand>"] }
        var tokens = command.arguments.filter { $0.kind != .positional && !$0.isHidden }.map { spec in
            let text = spec.synopsis + (spec.isRepeatable && spec.kind == .option ? " ..." : "")
            return spec.isRequired ? text : "[\(text)]"
        }
        let positionals = command.arguments.filter { $0.kind == .positional }
        tokens.insert(contentsOf: positionals.map { p in
            let text = p.synopsis + (p.isRepeatable ? " ..." : "")
            return p.isRequired ? text : "[\(text)]"
        }, at: 0)
        if hasSubcommands { tokens.append("[<subcommand>]") }
        return tokens
    }

    private static func subcommandRows(_ path: [any ParsableCommand.Type]) -> [String] {
        let subcommands = path[path.count - 1].configuration.subcommands
        if subcommands.isEmpty { return [] }
        var rows = subcommands.flatMap { row($0.configuration.name, $0.configuration.abstract) }
        if path.count == 1 { rows += row("help", "Show help for a subcommand.") }
        return rows
    }

    private static func optionLabel(_ spec: ArgumentSpec) -> String {
        (spec.short.map { "-\($0), " } ?? "") + spec.synopsis
    }

    /// The help sentence plus `(values: …; default: …)` and `(can be repeated)`.
    static func describe(_ spec: ArgumentSpec) -> String {
        var notes: [String] = []
        if !spec.choices.isEmpty { notes.append("values: " + spec.choices.joined(separator: ", ")) }
        if let value = spec.defaultValue { notes.append("default: " + value) }
        if spec.isRepeatable, spec.kind == .option { notes.append("can be repeated") }
        return notes.isEmpty ? spec.help : spec.help + " (" + notes.joined(separator: "; ") + ")"
    }

    /// `  label                   help…`, the help on the next line if the label is too wide.
    private static func row(_ label: String, _ help: String) -> [String] {
        let indent = String(repeating: " ", count: helpColumn)
        let head = "  " + label
        if head.count + 2 <= helpColumn {
            let padded = head + String(repeating: " ", count: helpColumn - head.count)
            return wrap(help, first: padded, indent: indent)
        }
        return [head] + wrap(help, indent: indent)
    }

    private static func wrap(_ text: String, first: String? = nil, indent: String) -> [String] {
        wrap(text.split(separator: " ").map(String.init), first: first ?? indent, indent: indent)
    }

    /// Greedy word wrap at `width`; a word longer than a line gets a line of its own.
    private static func wrap(_ words: [String], first: String, indent: String) -> [String] {
        var lines: [String] = []
        var line = first
        var lineHasWord = false
        for word in words {
            if lineHasWord, line.count + 1 + word.count > width {
                lines.append(line)
                line = indent
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        lines.append(line)
        return lines
    }
}
