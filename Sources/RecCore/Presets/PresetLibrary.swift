/// Every preset rec knows: the built-ins, then the user's presets from
/// `$XDG_CONFIG_HOME/rec/presets/*.json` (default `~/.config/rec/presets/`), which add presets
/// and replace built-ins of the same name. A preset's name is its file name without ".json".
package struct PresetLibrary: Sendable {
    /// Where a preset came from.
    package enum Source: Sendable, Equatable {
        case builtin
        /// A file in the user preset folder; `overridesBuiltin` when it replaces a built-in.
        case user(path: String, overridesBuiltin: Bool)
        /// A file named on the command line (`--preset ./mine.json`).
        case file(path: String)

        /// "built-in" or the file path.
        package var origin: String {
            switch self {
            case .builtin: "built-in"
            case .user(let path, _), .file(let path): path
            }
        }
    }

    package struct Entry: Sendable, Equatable {
        package var preset: Preset
        package var source: Source
    }

    /// All presets, sorted by name.
    package private(set) var entries: [Entry]
    /// The user preset folder, whether or not it exists; nil without HOME or XDG_CONFIG_HOME.
    package var userDirectory: String?

    /// The built-in presets alone. The tests parse every built-in, so a failure here is a bug in
    /// rec, not bad input; it is still thrown, naming the preset, rather than trapping.
    package static func builtins() throws(RecError) -> PresetLibrary {
        var entries: [Entry] = []
        for (name, text) in BuiltinPresets.json {
            entries.append(Entry(preset: try Preset.parse(text, name: name, origin: "built-in"), source: .builtin))
        }
        return PresetLibrary(entries: entries.sorted { $0.preset.name < $1.preset.name }, userDirectory: nil)
    }

    /// The built-ins plus the user's presets. Any user preset that fails to parse fails the load,
    /// with a message naming its file.
    package static func load(environment: [String: String], files: PresetFiles) throws(RecError) -> PresetLibrary {
        var library = try builtins()
        library.userDirectory = userDirectory(environment: environment)
        guard let directory = library.userDirectory else { return library }
        for path in try files.listJSON(directory) {
            let name = presetName(forFile: path)
            let preset = try Preset.parse(try files.read(path), name: name, origin: path)
            let overrides = BuiltinPresets.json[name] != nil
            library.entries.removeAll { $0.preset.name == name }
            library.entries.append(Entry(preset: preset, source: .user(path: path, overridesBuiltin: overrides)))
        }
        library.entries.sort { $0.preset.name < $1.preset.name }
        return library
    }

    /// `$XDG_CONFIG_HOME/rec/presets` when XDG_CONFIG_HOME is an absolute path (the XDG spec
    /// ignores relative ones), else `$HOME/.config/rec/presets`.
    package static func userDirectory(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return trimmed(xdg) + "/rec/presets" }
        if let home = environment["HOME"], !home.isEmpty { return trimmed(home) + "/.config/rec/presets" }
        return nil
    }

    private static func trimmed(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// A file's preset name: its last path component without ".json".
    package static func presetName(forFile path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return file.hasSuffix(".json") ? String(file.dropLast(5)) : file
    }

    /// The names, sorted.
    package var names: [String] { entries.map(\.preset.name) }

    /// The preset with this name, or a usage error listing the available ones.
    package func entry(named name: String) throws(RecError) -> Entry {
        if let entry = entries.first(where: { $0.preset.name == name }) { return entry }
        let hint = nearestName(to: name, in: names).map { "did you mean '\($0)'? " } ?? ""
        throw RecError.usage("unknown preset '\(name)'; \(hint)available: \(names.joined(separator: ", ")) (or give a path to a .json file)",
                             location: name).because(.notFound)
    }

    /// Whether a `--preset` argument is a file path: it contains '/' or ends with ".json".
    package static func isPath(_ argument: String) -> Bool {
        argument.contains("/") || argument.hasSuffix(".json")
    }

    /// What `--preset ARGUMENT` means: a file when `isPath`, else a preset name.
    package func resolve(_ argument: String, files: PresetFiles) throws(RecError) -> Entry {
        guard PresetLibrary.isPath(argument) else { return try entry(named: argument) }
        let preset = try Preset.parse(try files.read(argument), name: PresetLibrary.presetName(forFile: argument), origin: argument)
        return Entry(preset: preset, source: .file(path: argument))
    }
}
