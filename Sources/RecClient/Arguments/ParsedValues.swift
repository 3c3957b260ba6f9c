import RecCore

/// The values given on the command line for one command, read back by argument name with a type.
///
/// Asking for a name the command did not declare is a programmer error and traps.
public struct ParsedValues: Sendable {
    let specs: [ArgumentSpec]
    /// The raw strings given for each name, in command-line order; flags store one "" per use.
    var given: [String: [String]]

    init(specs: [ArgumentSpec], given: [String: [String]] = [:]) {
        self.specs = specs
        self.given = given
    }

    /// Whether the flag was given.
    public func flag(_ name: String) -> Bool {
        precondition(spec(name).kind == .flag, "'\(name)' is not a flag")
        return given[name] != nil
    }

    /// Whether the option or argument was given on the command line (its default does not count).
    public func isSet(_ name: String) -> Bool {
        _ = spec(name)
        return given[name] != nil
    }

    /// The value of an option or positional argument, its default if absent, or `nil`.
    public func value<T: ArgumentValue>(_ name: String, as type: T.Type = T.self) throws(RecError) -> T? {
        let spec = spec(name)
        guard let text = given[name]?.last ?? spec.defaultValue else { return nil }
        return try convert(text, for: spec)
    }

    /// Like `value(_:as:)`, but a missing value is a usage error.
    public func require<T: ArgumentValue>(_ name: String, as type: T.Type = T.self) throws(RecError) -> T {
        guard let value = try value(name, as: type) else {
            let spec = spec(name)
            let what = spec.kind == .positional ? "argument" : "option"
            throw .usage("missing \(what) '\(spec.synopsis)'")
        }
        return value
    }

    /// Every value of a repeatable option in command-line order, or its default, or none.
    public func values<T: ArgumentValue>(_ name: String, as type: T.Type = T.self) throws(RecError) -> [T] {
        let spec = spec(name)
        let texts = given[name] ?? spec.defaultValue.map { [$0] } ?? []
        var result: [T] = []
        for text in texts { result.append(try convert(text, for: spec)) }
        return result
    }

    private func convert<T: ArgumentValue>(_ text: String, for spec: ArgumentSpec) throws(RecError) -> T {
        guard let value = T(argument: text) else {
            throw .usage("invalid value '\(text)' for '\(spec.displayName)': expected \(T.expectedValue)")
        }
        return value
    }

    private func spec(_ name: String) -> ArgumentSpec {
        guard let spec = specs.first(where: { $0.name == name }) else {
            preconditionFailure("no argument named '\(name)' is declared")
        }
        return spec
    }
}
