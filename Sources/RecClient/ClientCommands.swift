import Foundation
import RecCore

/// The commands that only talk to a running session. `rec` runs them itself — this module links
/// no FFmpeg, so they cost a process start of milliseconds — and hands everything else to
/// `rec-engine`, which has every command.
package enum ClientCommands {
    /// `save`, `stop`, `status`, `snapshot`, `control`, `view`, in help order.
    package static let session: [any ParsableCommand.Type] = [
        SaveCommand.self, StopCommand.self, StatusCommand.self, SnapshotCommand.self, CameraControlCommand.self, EventsCommand.self, ViewCommand.self,
    ]

    /// Runs `arguments` here if they are a client command (and not a request for help, which
    /// needs the whole command list); nil means "give it to rec-engine".
    package static func runIfClientCommand(_ arguments: [String], root: any ParsableCommand.Type) -> Int32? {
        guard let first = arguments.first, session.contains(where: { $0.configuration.name == first }),
              !arguments.contains(where: { $0 == "-h" || $0 == "--help" }) else { return nil }
        let environment = ProcessInfo.processInfo.environment
        let context = CommandContext(console: .standard(environment: environment), environment: environment)
        return CommandRunner.run(arguments, root: root, context: context)
    }
}

/// The root `rec` as the thin client sees it: the client commands only. Errors and usage lines
/// name `rec`, exactly as the full command line does.
package struct ClientRoot: ParsableCommand {
    package static let configuration = CommandConfiguration(
        name: "rec", abstract: "Record video frames and cut frame-exact clips.", subcommands: ClientCommands.session)

    package init(_ values: ParsedValues) {}

    package func run(_ context: CommandContext) -> Int32 { 64 }
}
