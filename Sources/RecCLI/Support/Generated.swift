import Foundation
import RecClient
import RecCore
import SessionControl

/// What the hidden root options produce: man pages and completion scripts from the command
/// declarations, and the live names completions offer.
enum Generated {
    static var tree: CommandTree { CommandTree(root: RootCommand.self) }

    /// Man markup for the root page's FILES, ENVIRONMENT and SIGNALS sections.
    static let rootExtra = """
        .SH FILES
        .TP
        \\fI~/.config/rec/config.json\\fR
        Defaults for options left off the command line; see \\fBrec\\-config\\fR(1).
        .TP
        \\fI~/.config/rec/presets/*.json\\fR
        Your own encoding presets; see \\fBrec\\-presets\\fR(1).
        .SH ENVIRONMENT
        .TP
        \\fBXDG_CONFIG_HOME\\fR
        Where the configuration and presets are looked for instead of \\fI~/.config\\fR.
        .TP
        \\fBXDG_RUNTIME_DIR\\fR
        Where background sessions keep their control sockets and logs (\\fI$XDG_RUNTIME_DIR/rec\\fR).
        .TP
        \\fBNO_COLOR\\fR
        Turns colour off.
        .SH SIGNALS
        A background session finishes its file and exits on SIGTERM or SIGINT, and saves its last
        \\fB\\-\\-usr1\\-last\\fR (default 30s) as a clip on SIGUSR1.
        """

    static func manualPages() -> [(file: String, text: String)] {
        ManualPages.pages(tree, version: RecCLI.version, extra: ["rec": rootExtra])
    }

    static func writeManual(into folder: String) throws(RecError) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for page in manualPages() {
                try Data(page.text.utf8).write(to: URL(fileURLWithPath: folder).appendingPathComponent(page.file))
            }
        } catch {
            throw .runtime("cannot write the man pages into \(folder); check that it is a folder you can write", cause: "\(error)")
        }
    }

    static func completionScript(_ shell: String) -> String {
        switch shell {
        case "zsh": ZshCompletion.script(tree)
        case "fish": FishCompletion.script(tree)
        default: BashCompletion.script(tree)
        }
    }

    /// Running session names, preset names, or camera nodes.
    static func names(_ kind: String, environment: [String: String]) -> [String] {
        switch kind {
        case "sessions":
            return RuntimeDirectory.current().list().compactMap { listing in
                if case .running = listing.presence { return listing.folder.name }
                return nil
            }
        case "presets":
            let library = (try? PresetLibrary.load(environment: environment, files: .local)) ?? (try? PresetLibrary.builtins())
            return library?.entries.map(\.preset.name) ?? []
        default:
            let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []
            return nodes.filter { $0.hasPrefix("video") }.sorted { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }.map { "/dev/" + $0 }
        }
    }
}
