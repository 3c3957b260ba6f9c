import Foundation
import Testing

/// Issue 41: dependencies run one way, the command line on the library, never the reverse
/// (docs/ARCHITECTURE.md, "Which module may import which"). Reads Package.swift's targets and
/// every source file's imports.
@Suite struct ModuleDependencyTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The modules of the command line: argument parsing, completions, the commands.
    static let commandLine: Set<String> = ["RecClient", "TrimCLI", "RecCLI", "Review", "rec", "rec-engine", "rec-trim"]

    /// Each target's declared dependencies, from Package.swift.
    static func targets() throws -> [String: [String]] {
        let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"\.(?:target|executableTarget|testTarget|systemLibrary)\(\s*name: "([\w-]+)"(?:,\s*dependencies: \[([^\]]*)\])?"#)
        var out: [String: [String]] = [:]
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let name = Range(match.range(at: 1), in: text).map({ String(text[$0]) }) else { continue }
            let list = Range(match.range(at: 2), in: text).map { String(text[$0]) } ?? ""
            out[name] = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
                .filter { !$0.isEmpty }
        }
        return out
    }

    /// `name` and every target it depends on, directly or not.
    static func closure(of name: String, in targets: [String: [String]]) -> Set<String> {
        var seen: Set<String> = [], stack = [name]
        while let next = stack.popLast() {
            guard seen.insert(next).inserted else { continue }
            stack += targets[next] ?? []
        }
        return seen
    }

    @Test func theLibraryProductDependsOnNoCommandLineModule() throws {
        let targets = try Self.targets()
        #expect(targets["Rec"] != nil && targets["RecClient"] != nil, "Package.swift's targets were not read: \(targets.keys.sorted())")
        let library = Self.closure(of: "Rec", in: targets)
        #expect(library.isDisjoint(with: Self.commandLine), "Rec pulls in \(library.intersection(Self.commandLine).sorted())")
        for module in library where !Self.commandLine.contains(module) {
            let reached = Self.closure(of: module, in: targets).intersection(Self.commandLine)
            #expect(reached.isEmpty, "\(module) depends on \(reached.sorted())")
        }
    }

    /// Every Swift file imports only modules its target declares (or the toolchain's), so the
    /// graph in Package.swift is the graph of the code.
    @Test func everyImportIsADeclaredDependency() throws {
        let targets = try Self.targets()
        let toolchain: Set<String> = ["Foundation", "FoundationEssentials", "Glibc", "Dispatch", "Synchronization", "Testing", "XCTest", "os"]
        let sources = Self.root.appendingPathComponent("Sources")
        var undeclared: [String] = []
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            guard let declared = targets[module] else { continue }
            let allowed = toolchain.union(declared).union([module])
            let enumerator = FileManager.default.enumerator(atPath: sources.appendingPathComponent(module).path)
            while let path = enumerator?.nextObject() as? String {
                guard path.hasSuffix(".swift") else { continue }
                let text = try String(contentsOf: sources.appendingPathComponent(module).appendingPathComponent(path), encoding: .utf8)
                for line in text.split(separator: "\n") {
                    guard let match = line.wholeMatch(of: /(?:@testable |package )?import ([A-Za-z_][A-Za-z0-9_]*)/) else { continue }
                    let imported = String(match.1)
                    if !allowed.contains(imported) { undeclared.append("\(module)/\(path) imports \(imported)") }
                }
            }
        }
        #expect(undeclared.isEmpty, "imports Package.swift does not declare:\n\(undeclared.joined(separator: "\n"))")
    }
}
