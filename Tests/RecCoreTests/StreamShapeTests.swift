import Foundation
import Testing

/// Streams are values, not indices: no literal stream index decides anything in Sources (sound
/// used to be "stream 1" at fifteen sites in four modules). A muxer's own output index, set from
/// a stream's place in the list it was made with, is not a decision and is not matched.
@Suite struct StreamShapeTests {
    static let forbidden: [(pattern: String, why: String)] = [
        (#"streamIndex\s*(==|!=|<=|>=|<|>)\s*[0-9]"#, "a packet's stream told by a literal index"),
        (#"streamIndex\s*:\s*[1-9]"#, "a packet put in a literal stream other than the first"),
        (#"\.streamIndex\s*=\s*[1-9]"#, "a packet moved to a literal stream"),
        (#"\bothers\s*:\s*\[ClipTrack\]"#, "a clip's input as video + others"),
        (#"\bvar\s+sound\s*:\s*\[EncodedPacket\]"#, "the ring's sound kept beside its packets"),
    ]

    static var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
    }

    @Test func noLiteralStreamIndexDecidesAnything() throws {
        let files = try #require(FileManager.default.enumerator(atPath: Self.sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 100)
        var found: [String] = []
        for file in files {
            let text = try String(contentsOfFile: Self.sources.appendingPathComponent(file).path, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                for rule in Self.forbidden where code.range(of: rule.pattern, options: .regularExpression) != nil {
                    found.append("\(file):\(number + 1): \(rule.why): \(code)")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
