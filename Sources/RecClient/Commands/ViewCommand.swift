import Foundation
import RecCore
import SessionControl

/// `rec view`: print the live page's address (with its token) and open it in a browser.
struct ViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "view",
        abstract: "Print the address of a session's live page and open it in the browser.",
        examples: [Example("Watch the default session (started with --http 8080).", "rec view")]
    )
    static let arguments: [ArgumentSpec] = [
        .session,
        .noOpen,
    ]

    var session: String
    var noOpen: Bool

    init(_ values: ParsedValues) throws(RecError) {
        session = try values.require(.session)
        noOpen = values.flag(.noOpen)
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        let name = try SessionName.validate(session)
        let folder = try RuntimeDirectory.current().folder(named: name)
        guard FileManager.default.fileExists(atPath: folder.socketPath) else {
            throw .runtime("no session '\(name)' is running; start one with 'rec start --http 8080'")
        }
        guard let url = folder.readLiveURL() else {
            throw .runtime("session '\(name)' serves no live page; start it with 'rec start --http 8080'")
        }
        context.console.print(url)
        let environment = context.environment
        let display = !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        if !noOpen && display { open(url) }
        return 0
    }

    /// Starts `xdg-open` and does not wait for the browser.
    private func open(_ url: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }
}

private extension ArgumentSpec {
    static let noOpen = flag("no-open", help: "Only print the address; do not start a browser.")
}
