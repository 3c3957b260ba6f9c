import Foundation
import RecCore
import Testing

@testable import RecCLI
@testable import RecClient
import TestPool

/// Man pages and completions are generated from the declarations; these tests walk the same
/// declarations and check that every command and option appears, so nothing can drift.
@Suite("Generated man pages and completions", .blocking)
struct GeneratedDocsTests {
    static let tree = CommandTree(root: RootCommand.self)

    @Test("Every command has a man page listing each of its options", arguments: tree.nodes.map(\.pageName))
    func manPage(_ name: String) throws {
        let node = try #require(Self.tree.nodes.first { $0.pageName == name })
        let page = try #require(Generated.manualPages().first { $0.file == name + ".1" })
        #expect(page.text.contains(".TH \(name.uppercased()) 1"))
        for spec in node.options { #expect(page.text.contains("\\fB\\-\\-\(ManualPages.escape(spec.name))\\fR"), "\(name): --\(spec.name)") }
        for spec in node.positionals { #expect(page.text.contains("\\fI\(spec.name)\\fR"), "\(name): <\(spec.name)>") }
        for sub in node.command.configuration.subcommands { #expect(page.text.contains(ManualPages.escape(name + "-" + sub.configuration.name))) }
        for spec in node.command.arguments where spec.isHidden { #expect(!page.text.contains(ManualPages.escape(spec.name))) }
    }

    @Test("Every command's options and subcommands are in each completion script", arguments: tree.nodes.map(\.pageName))
    func completions(_ name: String) throws {
        let node = try #require(Self.tree.nodes.first { $0.pageName == name })
        let bash = Generated.completionScript("bash"), zsh = Generated.completionScript("zsh"), fish = Generated.completionScript("fish")
        let section = try #require(bash.components(separatedBy: "    '\(node.commandLine)')\n").dropFirst().first?
            .components(separatedBy: "\n        ;;").first)
        for spec in node.options {
            #expect(section.contains("--\(spec.name)"), "bash \(name): --\(spec.name)")
            #expect(zsh.contains("--\(spec.name)"), "zsh: --\(spec.name)")
            #expect(fish.contains("-l \(spec.name)"), "fish: --\(spec.name)")
        }
        for sub in node.subcommandNames {
            #expect(section.contains(sub), "bash \(name): \(sub)")
            #expect(fish.contains("-a '\(sub)'"), "fish: \(sub)")
        }
    }

    @Test func hiddenOptionsStayOutOfHelpAndCompletions() {
        #expect(!HelpFormatter.help(for: [RootCommand.self]).contains("generate"))
        for shell in ["bash", "zsh", "fish"] { #expect(!Generated.completionScript(shell).contains("generate-manual")) }
    }

    @Test func valuesCompleteFromWhatTheDeclarationsSay() throws {
        let start = try #require(Self.tree.nodes.first { $0.commandLine == "rec start" })
        func kind(_ name: String) -> ValueCompletion? { start.arguments.first { $0.name == name }.map { ValueCompletion($0, in: start) } }
        #expect(kind("session") == .sessions)
        #expect(kind("preset") == .presets)
        #expect(kind("source") == .sources)
        #expect(kind("output") == .files)
        #expect(kind("on-unplug") == .choices(["stop", "wait"]))
    }

    /// Drives the generated bash function as bash's completion would: COMP_WORDS, COMP_CWORD, COMPREPLY.
    @Test(arguments: [(["rec", "sa"], "save"), (["rec", "record", "--pre"], "--preset"), (["rec", "presets", "s"], "show"),
                      (["rec", "start", "--on-unplug", "w"], "wait"), (["rec", "save", "--preset-not-an-option"], "")])
    func bashCompletes(_ words: [String], _ expected: String) throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = folder + "/rec.bash"
        try Generated.completionScript("bash").write(toFile: script, atomically: true, encoding: .utf8)
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let body = "source '\(script)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _rec; printf '%s\\n' \"${COMPREPLY[@]}\""
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", body]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.split(separator: "\n").map(String.init) == (expected.isEmpty ? [] : [expected]))
    }

    @Test func completeListsPresetsAndRejectsUnknownKinds() {
        let presets = rec(["--complete", "presets"])
        #expect(presets.status == 0)
        #expect(presets.output.split(separator: "\n").contains("default"))
        #expect(rec(["--complete", "colours"]).status == 64)
    }
}
