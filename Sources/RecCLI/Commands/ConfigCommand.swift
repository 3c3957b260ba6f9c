import Foundation
import RecClient
import RecCore
import SessionControl

/// `rec config`: the settings `record`, `start` and `save` use when an option is left out, and
/// where each comes from: built in, a line of the configuration file, or the command line.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "config",
        abstract: "Show the effective settings and where each comes from.",
        discussion: "Settings come from the built-in defaults, then ~/.config/rec/config.json ($XDG_CONFIG_HOME/rec/config.json), whose \"sessions\" object holds per-session sections, then the command line. Give options here to see how a command line would change them.",
        examples: [
            Example("See what 'rec start --session garage' would use.", "rec config --session garage"),
        ]
    )
    /// One option for each configuration key, in `UserConfig.keys` order.
    static let settingArguments: [ArgumentSpec] = UserConfig.keys.map { key in
        key.kind == .flag ? .flag(key.name, help: key.help) : .option(key.name, value: key.kind == .pattern ? "file" : "value", help: key.help)
    }
    static let arguments: [ArgumentSpec] = [.session] + settingArguments + [.json]
    static let readsConfig = true

    /// Each setting's value and origin, in `UserConfig.keys` order.
    struct Setting: Encodable, Equatable {
        var name: String
        var value: String?
        var origin: String
    }

    var session: String
    var settings: [Setting]
    var json: Bool
    var file: String?

    init(_ values: ParsedValues) throws(RecError) {
        session = try values.require(.session)
        json = values.flag(.json)
        file = values.configPath
        settings = try zip(UserConfig.keys, Self.settingArguments).map { key, spec throws(RecError) in
            let origin = values.origin(spec)
            var value: String?
            switch (key.kind, origin) {
            case (.flag, _): value = values.flag(spec) ? "true" : "false"
            case (.pattern, "built-in"): value = Self.builtIn(key.name)
            case (.pattern, "command line"): value = try values.value(spec)
            case (.pattern, _): value = values.outputPattern
            default: value = try values.value(spec) ?? Self.builtIn(key.name)
            }
            return Setting(name: key.name, value: value.map { Self.shown(key.name, $0) }, origin: origin)
        }
    }

    /// A value as it may be shown: a camera's, a broker's or a destination's password never is.
    static func shown(_ name: String, _ value: String) -> String {
        switch name {
        case "source", "motion-source", "mqtt": NetworkURL.redacting(value)
        case "upload": UploadDestination.redacting(value)
        default: value
        }
    }

    /// The default the commands declare for `name`, as their help shows it.
    static func builtIn(_ name: String) -> String? {
        if name == "output" { return "rec-YYYYMMDD-HHMMSS.mkv (or .mp4, by preset) in the current folder" }
        let tree = CommandTree(root: RootCommand.self)
        return tree.nodes.lazy.compactMap { $0.command.arguments.first { $0.name == name }?.defaultValue }.first
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        if json {
            struct Body: Encodable { var file: String?; var session: String; var settings: [Setting] }
            context.console.print(JSONText.encode(Body(file: file, session: session, settings: settings)))
            return 0
        }
        let exists = file.map { FileManager.default.fileExists(atPath: $0) } ?? false
        context.console.print("configuration file: \(file ?? "?")" + (exists ? "" : " (none yet)"))
        let width = (settings.map(\.name.count).max() ?? 0) + 2
        for s in settings {
            context.console.print("  " + s.name + String(repeating: " ", count: width - s.name.count) + (s.value ?? "-") + "  (\(s.origin))")
        }
        return 0
    }
}
