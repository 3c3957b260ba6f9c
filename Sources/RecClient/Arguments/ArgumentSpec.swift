/// One declared command-line argument: an option with a value (`--source NAME`, `-o FILE`,
/// `--from=12s`), a flag (`--force`), or a positional argument (`rec trim INPUT`).
///
/// Each argument is declared once, as a static constant (`static let buffer = ArgumentSpec.option("buffer", …)`
/// in an `ArgumentSpec` extension); a command lists those in `static let arguments: [ArgumentSpec]`,
/// the parser reads the command line against that list, and the command reads typed values back
/// through the same constants (`values.require(.buffer)`), so a name is never spelled twice.
package struct ArgumentSpec: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case option
        case flag
        case positional
    }

    package var kind: Kind
    /// The long name without dashes (`"source"` is `--source`), or a positional argument's name.
    package var name: String
    /// A one-letter alias: `"o"` makes `-o` mean `--output`.
    package var short: Character?
    /// What help shows for the value: `"time"` gives `--from <time>`.
    package var valueName: String
    /// One sentence ending with a period.
    package var help: String
    /// The value used when the option is absent; help shows it as `(default: …)`.
    package var defaultValue: String?
    /// The only values accepted, if not empty; help shows them as `(values: …)`.
    package var choices: [String]
    package var isRequired: Bool
    /// Whether the option may be given more than once (`--filter a --filter b`).
    package var isRepeatable: Bool
    /// Left out of help, man pages and completions: plumbing for scripts, such as
    /// `--generate-manual`.
    package var isHidden = false

    /// An option that takes a value: `--name <value>`, `--name=<value>` or `-s <value>`.
    package static func option(
        _ name: String,
        short: Character? = nil,
        value: String? = nil,
        default defaultValue: String? = nil,
        choices: [String] = [],
        required: Bool = false,
        repeatable: Bool = false,
        help: String
    ) -> ArgumentSpec {
        ArgumentSpec(
            kind: .option, name: name, short: short, valueName: value ?? name, help: help,
            defaultValue: defaultValue, choices: choices, isRequired: required, isRepeatable: repeatable
        )
    }

    /// A switch without a value: `--force`; read it with `ParsedValues.flag(_:)`.
    package static func flag(_ name: String, short: Character? = nil, help: String) -> ArgumentSpec {
        ArgumentSpec(
            kind: .flag, name: name, short: short, valueName: name, help: help,
            defaultValue: nil, choices: [], isRequired: false, isRepeatable: true
        )
    }

    /// A positional argument, matched in declaration order: `rec trim <input>`. A repeatable one
    /// (last in the list) takes every remaining argument: `rec control <setting> ...`.
    package static func positional(
        _ name: String,
        optional: Bool = false,
        repeatable: Bool = false,
        help: String
    ) -> ArgumentSpec {
        ArgumentSpec(
            kind: .positional, name: name, short: nil, valueName: name, help: help,
            defaultValue: nil, choices: [], isRequired: !optional, isRepeatable: repeatable
        )
    }

    /// The same argument, left out of help, man pages and completions.
    package func hidden() -> ArgumentSpec {
        var copy = self
        copy.isHidden = true
        return copy
    }

    /// How the argument is written in messages: `--source`, `-o` alone never, `<input>`.
    package var displayName: String {
        kind == .positional ? "<\(name)>" : "--\(name)"
    }

    /// `--source <source>`, `--force`, or `<input>`.
    var synopsis: String {
        switch kind {
        case .option: "--\(name) <\(valueName)>"
        case .flag: "--\(name)"
        case .positional: "<\(name)>"
        }
    }
}

extension ArgumentSpec {
    /// This option with `value` as a command line that rec builds for another rec gives it (a
    /// box's rec over ssh, a detached session): `["--name", value]`, or nothing when `value` is
    /// nil. Spelled from the declaration, so renaming the option renames it here too.
    package func spelled(_ value: String?) -> [String] {
        assert(kind == .option, "\(displayName) takes no value")
        return value.map { [displayName, $0] } ?? []
    }

    /// This flag as such a command line gives it: `["--name"]` when `given`, else nothing.
    package func spelled(if given: Bool = true) -> [String] {
        assert(kind == .flag, "\(displayName) is not a flag")
        return given ? [displayName] : []
    }
}
