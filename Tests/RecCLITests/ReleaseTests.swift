import Foundation
import RecCLI
import Testing
import TestPool

/// Issue 41: the version `rec --version` prints is one CHANGELOG.md describes, and every release
/// has the dump of its public API that scripts/api-check.sh compares the library with
/// (docs/RELEASING.md). Reads the repository's files, not its git tags, which a CI clone may lack:
/// a release is a CHANGELOG section with a date.
@Suite("Releases", .blocking)
struct ReleaseTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// MAJOR.MINOR.PATCH, compared as numbers.
    struct Version: Comparable, CustomStringConvertible {
        var parts: [Int]
        init?(_ text: String) {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count == 3, parts.allSatisfy({ $0 != nil }) else { return nil }
            self.parts = parts.compactMap { $0 }
        }
        static func < (a: Version, b: Version) -> Bool { a.parts.lexicographicallyPrecedes(b.parts) }
        var description: String { parts.map(String.init).joined(separator: ".") }
    }

    struct Section {
        var version: String
        /// The release day, `YYYY-MM-DD`; nil for a version not released yet (`- unreleased`).
        var date: String?
    }

    /// CHANGELOG.md's version sections: `## 0.1.0 - 2026-12-06`, `## [0.2.0] - unreleased`;
    /// `## Unreleased` is none.
    static func sections() throws -> [Section] {
        let text = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let heading = try NSRegularExpression(pattern: #"^##\s+\[?(\d+\.\d+\.\d+)\]?(?:\s+-\s+(.*?))?\s*$"#, options: .anchorsMatchLines)
        return heading.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            guard let version = Range(match.range(at: 1), in: text).map({ String(text[$0]) }) else { return nil }
            let rest = Range(match.range(at: 2), in: text).map { String(text[$0]) }
            return Section(version: version, date: rest.flatMap { $0.wholeMatch(of: /\d{4}-\d{2}-\d{2}/).map { String($0.output) } })
        }
    }

    /// The versions of api/releases/X.Y.Z.json.
    static func dumps() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("api/releases").path)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
    }

    @Test func theVersionHasAChangelogSection() throws {
        #expect(Version(RecCLI.version) != nil, "RecCLI.version '\(RecCLI.version)' is not MAJOR.MINOR.PATCH")
        let sections = try Self.sections()
        #expect(sections.contains { $0.version == RecCLI.version },
                "CHANGELOG.md has no '## \(RecCLI.version)' section for RecCLI.version; it has \(sections.map(\.version))")
        #expect(Set(sections.map(\.version)).count == sections.count, "a version has two sections: \(sections.map(\.version))")
    }

    @Test func everyReleaseHasItsAPIDumpAndEveryDumpItsRelease() throws {
        let released = Set(try Self.sections().filter { $0.date != nil }.map(\.version))
        let dumps = Set(try Self.dumps())
        #expect(!dumps.isEmpty)
        #expect(released.subtracting(dumps).isEmpty,
                "released in CHANGELOG.md without api/releases/X.Y.Z.json: \(released.subtracting(dumps).sorted())")
        #expect(dumps.subtracting(released).isEmpty,
                "api/releases/ holds a dump of a version with no dated CHANGELOG.md section: \(dumps.subtracting(released).sorted())")
        for version in dumps {
            let data = try Data(contentsOf: Self.root.appendingPathComponent("api/releases/\(version).json"))
            let dump = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let module = (dump?["ABIRoot"] as? [String: Any])?["name"] as? String
            #expect(module == "Rec", "api/releases/\(version).json is not swift-api-digester's dump of module Rec")
        }
    }

    /// `rec --version` is the newest release (its section dated), or the one being made after it
    /// (its section not dated yet): never older, never a release with no dump.
    @Test func theVersionIsTheLastReleaseOrTheNextOne() throws {
        let version = try #require(Version(RecCLI.version))
        let newest = try #require(try Self.dumps().compactMap(Version.init).max())
        let section = try Self.sections().first { $0.version == RecCLI.version }
        if version == newest {
            #expect(section?.date != nil, "RecCLI.version \(version) is released (api/releases/\(newest).json): date its CHANGELOG.md section")
        } else {
            #expect(newest < version, "RecCLI.version \(version) is older than the last release, \(newest)")
            #expect(section?.date == nil, "RecCLI.version \(version) has a dated CHANGELOG.md section but no api/releases/\(version).json")
        }
    }
}
