import RecCore

/// Reads one command's arguments (the words after its name) against its declared specs.
///
/// Accepts `--name value`, `--name=value`, `-s value`, flags, positional arguments in order,
/// and `--` to end options. `-h`/`--help` are handled by the runner before parsing.
enum ArgumentParser {
    static func parse(_ arguments: [String], specs: [ArgumentSpec]) throws(RecError) -> ParsedValues {
        var values = ParsedValues(specs: specs)
        let positionals = specs.filter { $0.kind == .positional }
        var nextPositional = 0
        var optionsEnded = false
        var index = 0
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if !optionsEnded, token == "--" {
                optionsEnded = true
            } else if !optionsEnded, isOptionLike(token) {
                let (spec, inline) = try lookUp(token, in: specs)
                let text: String
                if spec.kind == .flag {
                    guard inline == nil else { throw .usage("'\(spec.displayName)' does not take a value") }
                    text = ""
                } else if let inline {
                    text = inline
                } else {
                    guard index < arguments.count, !isOptionName(arguments[index], in: specs) else {
                        throw .usage("missing value for '\(spec.displayName) <\(spec.valueName)>'")
                    }
                    text = arguments[index]
                    index += 1
                }
                try record(text, for: spec, in: &values)
            } else {
                guard nextPositional < positionals.count else {
                    throw .usage("unexpected argument '\(token)'")
                }
                try record(token, for: positionals[nextPositional], in: &values)
                if !positionals[nextPositional].isRepeatable { nextPositional += 1 }
            }
        }
        if let missing = specs.first(where: { $0.isRequired && values.given[$0.name] == nil }) {
            let what = missing.kind == .positional ? "argument" : "option"
            throw .usage("missing \(what) '\(missing.synopsis)'")
        }
        return values
    }

    /// `-x` or `--xyz`, but not `-` (standard input) or a negative number.
    static func isOptionLike(_ token: String) -> Bool {
        guard token.hasPrefix("-"), token.count > 1 else { return false }
        return Double(token) == nil
    }

    /// Whether `token` names a declared option, so it cannot be the previous option's value.
    private static func isOptionName(_ token: String, in specs: [ArgumentSpec]) -> Bool {
        token.hasPrefix("--") || (isOptionLike(token) && (try? lookUp(token, in: specs)) != nil)
    }

    /// The spec `token` names and the value after `=`, if any.
    private static func lookUp(_ token: String, in specs: [ArgumentSpec]) throws(RecError) -> (ArgumentSpec, String?) {
        let named = specs.filter { $0.kind != .positional }
        if token.hasPrefix("--") {
            let body = token.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inline = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
            if let spec = named.first(where: { $0.name == name }) { return (spec, inline) }
            let hint = NameSuggestion.hint(for: name, in: named.map(\.name) + ["help"], prefix: "--")
            throw .usage("unknown option '--\(name)'" + hint)
        }
        if token.count == 2, let spec = named.first(where: { $0.short == token.last }) {
            return (spec, nil)
        }
        throw .usage("unknown option '\(token)'")
    }

    private static func record(_ text: String, for spec: ArgumentSpec, in values: inout ParsedValues) throws(RecError) {
        if !spec.choices.isEmpty, !spec.choices.contains(text) {
            let hint = NameSuggestion.hint(for: text, in: spec.choices)
            throw .usage(
                "invalid value '\(text)' for '\(spec.displayName)': expected one of "
                    + spec.choices.joined(separator: ", ") + hint
            )
        }
        if values.given[spec.name] != nil, !spec.isRepeatable {
            throw .usage("'\(spec.displayName)' was given more than once; give it once")
        }
        values.given[spec.name, default: []].append(text)
    }
}
