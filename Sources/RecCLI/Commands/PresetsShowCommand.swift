import RecClient
import RecCore

/// `rec presets show NAME`: print one preset's settings.
struct PresetsShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "show",
        abstract: "Show the settings of one encoding preset."
    )
    static let arguments: [ArgumentSpec] = [
        .presetName,
        .json,
    ]

    var name: String
    var json: Bool

    init(_ values: ParsedValues) throws(RecError) {
        name = try values.require(.presetName)
        json = values.flag(.json)
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        let library = try PresetLibrary.load(environment: context.environment, files: .local)
        let entry = try library.resolve(name, files: .local)
        context.console.writeOutput(json ? entry.preset.jsonText : PresetLibrary.showText(entry))
        return 0
    }
}

private extension ArgumentSpec {
    static let presetName = positional("name", help: "The preset to show, as listed by 'rec presets'.")
}
