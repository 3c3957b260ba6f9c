import Foundation
import Testing

/// Issue 20, item 8: constants that drifted apart live in one place. The MP4 index reserve is
/// `MoovReserve.bytes` for the recording's rewrite and for every clip (a clip once re-derived it
/// without its extradata term); no other file in Sources spells its numbers or sets `moov_size`
/// from anything else.
@Suite struct OneOfEachTests {
    @Test func theMoovReserveIsComputedInOnePlace() throws {
        let sources = StreamShapeTests.sources
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasSuffix("MoovReserve.swift") }
        #expect(files.count > 100)
        var found: [String] = []
        for file in files {
            let text = try String(contentsOfFile: sources.appendingPathComponent(file).path, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                let setsReserve = code.contains("moov_size") && !code.hasPrefix("///")
                if setsReserve && !code.contains("MoovReserve") && !code.contains("reserve") {
                    found.append("\(file):\(number + 1): moov_size not from MoovReserve: \(code)")
                }
                if code.range(of: #"16_?384\s*\+\s*48"#, options: .regularExpression) != nil {
                    found.append("\(file):\(number + 1): MoovReserve's numbers spelt again: \(code)")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
