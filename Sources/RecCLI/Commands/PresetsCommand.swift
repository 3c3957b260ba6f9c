import Foundation
import Media
import RecClient
import RecCore
import SessionControl

/// `rec presets`: list the encoding presets.
struct PresetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "presets",
        abstract: "List the encoding presets.",
        subcommands: [PresetsShowCommand.self]
    )
    static let arguments: [ArgumentSpec] = [.json]

    var json: Bool
    /// What this machine has; tests simulate hardware.
    var probe = HardwareProbe.machine

    init(_ values: ParsedValues) throws(RecError) {
        json = values.flag(.json)
    }

    /// Each preset that needs hardware, with the device it would use or what is missing.
    static func hardware(_ library: PresetLibrary, probe: HardwareProbe) -> [(name: String, device: String?, problem: String?)] {
        library.entries.compactMap { entry in
            guard HardwareAPI.required(by: entry.preset.encoder) != nil else { return nil }
            let result = HardwareCheck.check(encoder: entry.preset.encoder, probe: probe)
            return (entry.preset.name, result.device, result.problem)
        }
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        FFmpegLog.quiet() // probing a missing CUDA library logs its failure; the listing says it instead
        let library = try PresetLibrary.load(environment: context.environment, files: .local)
        let hardware = Self.hardware(library, probe: probe)
        if json {
            let rows = library.entries.map { entry -> [String: String] in
                var row = ["name": entry.preset.name, "description": entry.preset.description, "source": entry.source.origin]
                if let h = hardware.first(where: { $0.name == entry.preset.name }) {
                    row["runs_here"] = h.problem == nil ? "yes" : "no"
                    row[h.problem == nil ? "device" : "missing"] = h.problem ?? h.device ?? ""
                }
                return row
            }
            context.console.print(JSONText.encode(rows, pretty: true))
        } else {
            var text = library.listingText.hasSuffix("\n") ? library.listingText : library.listingText + "\n"
            if !hardware.isEmpty {
                text += "\nHardware encoders on this machine:\n"
                for h in hardware {
                    let padded = h.name + String(repeating: " ", count: max(1, 12 - h.name.count))
                    text += "  \(padded) " + (h.problem.map { "cannot run: \($0)" } ?? "runs here (\(h.device ?? "found"))") + "\n"
                }
            }
            context.console.writeOutput(text)
        }
        return 0
    }
}
