import RecCore

/// The values given on the command line for one command, read back with a type through the
/// declarations themselves: `values.value(.source)` for `static let source = ArgumentSpec.option("source", …)`,
/// so each name is written once, where it is declared.
package struct ParsedValues: Sendable {
    let specs: [ArgumentSpec]
    /// The raw strings given for each name, in command-line order; flags store one "" per use.
    var given: [String: [String]]
    /// Values from the configuration file for options not given, with the line that set them.
    var configured: [String: (value: String, line: Int)] = [:]
    /// The configuration file `configured` came from.
    package internal(set) var configPath: String?
    /// The configured `output` pattern, `~` expanded and its time fields left in: what
    /// `rec start` names the clips it saves on SIGUSR1 with.
    package private(set) var outputPattern: String?

    init(specs: [ArgumentSpec], given: [String: [String]] = [:]) {
        self.specs = specs
        self.given = given
    }

    /// Whether the flag was given (or set to true in the configuration file).
    package func flag(_ spec: ArgumentSpec) -> Bool {
        given[spec.name] != nil || configured[spec.name]?.value == "true"
    }

    /// Whether the option or argument was given on the command line (its default does not count).
    package func isSet(_ spec: ArgumentSpec) -> Bool {
        given[spec.name] != nil
    }

    /// The value of an option or positional argument, its default if absent, or `nil`.
    package func value<T: ArgumentValue>(_ spec: ArgumentSpec, as type: T.Type = T.self) throws(RecError) -> T? {
        guard let text = given[spec.name]?.last ?? configured[spec.name]?.value ?? spec.defaultValue else { return nil }
        return try convert(text, for: spec)
    }

    /// Like `value(_:as:)`, but a missing value is a usage error.
    package func require<T: ArgumentValue>(_ spec: ArgumentSpec, as type: T.Type = T.self) throws(RecError) -> T {
        guard let value = try value(spec, as: type) else {
            let what = spec.kind == .positional ? "argument" : "option"
            throw .usage("missing \(what) '\(spec.synopsis)'")
        }
        return value
    }

    /// Every value of a repeatable option in command-line order, or its default, or none.
    package func values<T: ArgumentValue>(_ spec: ArgumentSpec, as type: T.Type = T.self) throws(RecError) -> [T] {
        let texts = given[spec.name] ?? (configured[spec.name]?.value ?? spec.defaultValue).map { [$0] } ?? []
        var result: [T] = []
        for text in texts { result.append(try convert(text, for: spec)) }
        return result
    }

    /// Where the value of `spec` comes from: the command line, the configuration file's line, or
    /// the built-in default (`rec config` prints it).
    package func origin(_ spec: ArgumentSpec) -> String {
        if given[spec.name] != nil { return "command line" }
        if let entry = configured[spec.name], let configPath { return "\(configPath):\(entry.line)" }
        return "built-in"
    }

    /// The configuration's defaults for the options this command declares and were not given,
    /// the section of `--session` over the top level. The `output` pattern becomes a file name
    /// at this moment unless `--segment` names files itself.
    mutating func apply(_ config: UserConfig, environment: [String: String]) throws(RecError) {
        configPath = config.path
        let session = given[ArgumentSpec.session.name]?.last ?? ArgumentSpec.session.defaultValue ?? "default"
        let entries = config.entries(session: session)
        let output = ArgumentSpec.outputFile.name
        outputPattern = entries[output].map { UserConfig.expandTilde($0.value, environment: environment) }
        for (key, entry) in entries where given[key] == nil {
            guard specs.contains(where: { $0.name == key }), key != output || !isSet(.noFile) else { continue }
            var value = entry.value
            if key == output {
                value = UserConfig.expandTilde(value, environment: environment)
                if !isSet(.segment) { value = try UserConfig.fileName(pattern: value) }
            }
            configured[key] = (value, entry.line)
        }
    }

    private func convert<T: ArgumentValue>(_ text: String, for spec: ArgumentSpec) throws(RecError) -> T {
        guard let value = T(argument: text) else {
            throw .usage("invalid value '\(text)' for '\(spec.displayName)': expected \(T.expectedValue)")
        }
        return value
    }
}
