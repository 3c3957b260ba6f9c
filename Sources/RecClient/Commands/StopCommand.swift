import Foundation
import RecCore
import SessionControl

/// `rec stop`: end a background session.
struct StopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "stop",
        abstract: "Stop a background session and finish its recording file."
    )
    static let arguments: [ArgumentSpec] = [.session, .json]

    var session: String
    var json: Bool

    init(_ values: ParsedValues) throws(RecError) {
        session = try values.require(.session)
        json = values.flag(.json)
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        let runtime = RuntimeDirectory.current()
        let pid = try? runtime.folder(named: session).readPID()
        let reply = try ControlClient.send(.stop, session: session, runtime: runtime, timeout: .seconds(600))
        guard case .stop(let summary) = try reply.get() else { throw .runtime("the session answered stop with something else") }
        // The process exits once its reply is out; wait (bounded) so a following 'rec start' finds the name free.
        if let pid {
            for _ in 0..<100 where kill(pid, 0) == 0 { usleep(50_000) }
        }
        context.console.print(json ? StopText(summary).json : StopText(summary).text)
        return summary.error == nil ? 0 : 1
    }
}
