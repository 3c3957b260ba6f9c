import Foundation
import RecCore
import SessionControl

/// `rec status`: report on background sessions.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "status",
        abstract: "Show what a background session is recording and how much its buffer holds."
    )
    static let arguments: [ArgumentSpec] = [
        .session,
        .all,
        .json,
    ]

    var session: String
    var all: Bool
    var json: Bool

    init(_ values: ParsedValues) throws(RecError) {
        session = try values.require(.session)
        all = values.flag(.all)
        json = values.flag(.json)
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        let runtime = RuntimeDirectory.current()
        if all {
            let sessions = runtime.list()
            if json {
                let rows = sessions.map { s -> [String: String] in
                    var row = ["session": s.folder.name, "state": StatusText.presence(s.presence)]
                    if let info = s.info { row["source"] = info.source; row["pid"] = String(info.pid); row["started"] = info.startedAtText }
                    return row
                }
                context.console.print(JSONText.encode(rows))
            } else if sessions.isEmpty {
                context.console.print("no sessions are running; start one with 'rec start'")
            } else {
                for s in sessions {
                    let info = s.info.map { " pid \($0.pid), since \($0.startedAtText), \($0.source)" } ?? ""
                    context.console.print("\(s.folder.name): \(StatusText.presence(s.presence))\(info)")
                }
            }
            return 0
        }
        try SessionName.validate(session)
        let reply: ControlReply
        do {
            reply = try ControlClient.send(.status, session: session, runtime: runtime)
        } catch {
            // Scripts asking for JSON about a session that is not there get a JSON answer.
            if json, let presence = try? runtime.inspect(session) {
                if case .running = presence { throw error }
                context.console.print(JSONText.encode(["session": session, "state": "absent"]))
                return 1
            }
            throw error
        }
        guard case .status(let status) = try reply.get() else { throw .runtime("the session answered status with something else") }
        context.console.print(json ? StatusText.json(status) : StatusText.text(status))
        return 0
    }
}

private extension ArgumentSpec {
    static let all = flag("all", help: "Show every running session.")
}
