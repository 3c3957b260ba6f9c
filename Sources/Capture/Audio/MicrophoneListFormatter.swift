import Foundation

/// `rec devices` output for sound inputs: human text, or JSON for scripts.
package enum MicrophoneListFormatter {
    /// A heading, then one line per input — its `--audio` value, description and whether it is
    /// the default — then the notes ("pulse: no sound server is running …"), one line each.
    package static func text(_ listing: MicrophoneListing) -> String {
        var lines = ["microphones (--audio):"]
        let width = listing.microphones.map(\.audioSpec.count).max() ?? 0
        for mic in listing.microphones {
            let padding = String(repeating: " ", count: width - mic.audioSpec.count)
            lines.append("  \(mic.audioSpec)\(padding)  \(mic.description)" + (mic.isDefault ? "  (default)" : ""))
        }
        if listing.microphones.isEmpty && listing.notes.isEmpty { lines.append("  none found") }
        lines += listing.notes.map { "  " + $0 }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A JSON array of inputs: backend, name, description, default, and audio (the `--audio`
    /// value that records it).
    package static func json(_ microphones: [Microphone]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(microphones.map(JSONMicrophone.init)) else { return "[]" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

private struct JSONMicrophone: Encodable {
    var backend: String, name: String, description: String, audio: String
    var isDefault: Bool

    enum CodingKeys: String, CodingKey {
        case backend, name, description, audio
        case isDefault = "default"
    }

    init(_ m: Microphone) {
        (backend, name, description, audio, isDefault) = (m.backend.rawValue, m.name, m.description, m.audioSpec, m.isDefault)
    }
}
