import Foundation
import RecClient
import RecCore

/// `rec presets`: list the encoding presets.
struct PresetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "presets",
        abstract: "List the encoding presets.",
        subcommands: [PresetsShowCommand.self]
    )
    static let arguments: [ArgumentSpec] = [.json]

    var json: Bool

    init(_ values: ParsedValues) throws(RecError) {
        json = values.flag("json")
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        let library = try PresetLibrary.load(environment: context.environment, files: .local)
        if json {
            let rows = library.entries.map { ["name": $0.preset.name, "description": $0.preset.description, "source": $0.source.origin] }
            context.console.print(JSONText.encode(rows, pretty: true))
        } else {
            context.console.writeOutput(library.listingText.hasSuffix("\n") ? library.listingText : library.listingText + "\n")
        }
        return 0
    }
}
