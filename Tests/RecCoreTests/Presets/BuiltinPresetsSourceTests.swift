import Foundation
import RecCore
import Testing

/// The built-in presets are edited in one place, presets/*.json; BuiltinPresets.swift is what
/// scripts/generate-presets.sh makes of them, so the two cannot drift.
@Suite struct BuiltinPresetsSourceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The Swift file is, byte for byte, the script's output for the JSON files as they are now.
    @Test func swiftFileIsGeneratedFromTheJSON() throws {
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/bin/bash")
        script.arguments = [Self.root.appendingPathComponent("scripts/generate-presets.sh").path, "--stdout"]
        let pipe = Pipe()
        script.standardOutput = pipe
        try script.run()
        let generated = pipe.fileHandleForReading.readDataToEndOfFile()
        script.waitUntilExit()
        #expect(script.terminationStatus == 0)
        let file = try Data(contentsOf: Self.root.appendingPathComponent("Sources/RecCore/Presets/BuiltinPresets.swift"))
        #expect(generated == file, "presets/*.json changed: run scripts/generate-presets.sh")
    }

    /// presets/*.json are the built-ins users read and copy; each equals the compiled-in text.
    @Test func presetFilesEqualTheBuiltins() throws {
        let folder = Self.root.appendingPathComponent("presets")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(files.map { String($0.dropLast(5)) }.sorted() == BuiltinPresets.names)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(text == BuiltinPresets.json[String(file.dropLast(5))], "presets/\(file) differs from BuiltinPresets.swift")
        }
    }
}
