import RecCore

/// Finds the subcommand a command line names, then parses, validates and runs it, turning every
/// `RecError` into `rec: <message>` on stderr and its exit status.
package enum CommandRunner {
    package static func run(_ arguments: [String], root: any ParsableCommand.Type, context: CommandContext) -> Int32 {
        let console = context.console
        var path: [any ParsableCommand.Type] = [root]
        let command: any ParsableCommand
        do {
            let rest = try resolve(arguments, path: &path)
            if let target = rest.helpTarget {
                var helpPath: [any ParsableCommand.Type] = [root]
                _ = try resolve(target, path: &helpPath, allowArguments: false)
                console.writeOutput(HelpFormatter.help(for: helpPath))
                return 0
            }
            if rest.arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) {
                console.writeOutput(HelpFormatter.help(for: path))
                return 0
            }
            let type = path[path.count - 1]
            let config = type.readsConfig ? try UserConfig.load(environment: context.environment) : nil
            command = try type.parse(rest.arguments, config: config, environment: context.environment)
        } catch {
            console.printError("rec: " + error.message)
            if error.code == .usage { console.printError(usageHint(for: path)) }
            return error.code.exitStatus
        }
        do {
            return try command.run(context)
        } catch {
            console.printError("rec: " + error.message)
            // A runtime failure also says what underneath failed (FFmpeg's or the system's words).
            if error.code == .runtime, let cause = error.cause { console.printError("rec: cause: " + cause) }
            return error.code.exitStatus
        }
    }

    /// The words left after the subcommand names, or the words after `rec help`.
    private struct Remainder {
        var arguments: [String]
        var helpTarget: [String]?
    }

    /// Walks subcommand names from the front of `arguments`, appending their types to `path`.
    private static func resolve(
        _ arguments: [String], path: inout [any ParsableCommand.Type], allowArguments: Bool = true
    ) throws(RecError) -> Remainder {
        var arguments = arguments[...]
        while let word = arguments.first, !ArgumentParser.isOptionLike(word) {
            let command = path[path.count - 1]
            let subcommands = command.configuration.subcommands
            if let next = subcommands.first(where: { $0.configuration.name == word }) {
                path.append(next)
                arguments.removeFirst()
            } else if path.count == 1, word == "help", allowArguments {
                return Remainder(arguments: [], helpTarget: Array(arguments.dropFirst()))
            } else if subcommands.isEmpty || (allowArguments && command.arguments.contains { $0.kind == .positional }) {
                break
            } else {
                let names = subcommands.map { $0.configuration.name } + (path.count == 1 ? ["help"] : [])
                throw .usage("unknown subcommand '\(word)'" + NameSuggestion.hint(for: word, in: names))
            }
        }
        if !allowArguments, let word = arguments.first { throw .usage("unexpected argument '\(word)'") }
        return Remainder(arguments: Array(arguments), helpTarget: nil)
    }

    /// `Usage: rec trim <input> …` if it fits in 80 columns, else `See 'rec trim --help'.`
    static func usageHint(for path: [any ParsableCommand.Type]) -> String {
        let usage = "Usage: " + HelpFormatter.usage(for: path)
        if usage.count <= HelpFormatter.width { return usage }
        return "See '\(HelpFormatter.commandName(path)) --help'."
    }
}
