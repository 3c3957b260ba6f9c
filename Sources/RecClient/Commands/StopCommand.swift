import Foundation
import RecCore
import SessionControl

/// `rec stop`: end a background session.
struct StopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "stop",
        abstract: "Stop a background session and finish its recording file."
    )
    static let arguments: [ArgumentSpec] = [.session, .json, .host]

    var session: String
    var json: Bool
    var hosts: [String]

    init(_ values: ParsedValues) throws(RecError) {
        session = try values.require(.session)
        json = values.flag(.json)
        hosts = try HostChoice.given(values)
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        let boxes = try HostChoice.boxes(hosts, all: false, environment: context.environment)
        if !boxes.isLocalOnly {
            let runner = HostChoice.runner(context.environment, connect: .seconds(10), timeout: .seconds(600))
            return Forwarding.run(boxArguments, json: json, boxes: boxes, runner: runner, context: context)
        }
        let runtime = RuntimeDirectory.current()
        // Opened before the stop, so the wait below is for this session's process and no other.
        let exit = (try? runtime.folder(named: session).readPID()).map { ProcessExit.open(pid: $0) }
        let connection = try ControlClient.connect(session: session, runtime: runtime)
        defer { connection.close() }
        let reply = try connection.send(.stop, timeout: .seconds(600))
        guard case .stop(let summary) = try reply.get() else { throw .runtime("the session answered stop with something else") }
        // The process exits once its reply is out; wait (bounded) so a following 'rec start'
        // finds the name free: on its pidfd, or, where the kernel has none, until the session
        // closes this connection on its way out.
        switch exit {
        case .watching(let process)?: _ = process.wait(timeout: .seconds(5))
        case .gone?: break
        case .refused?, nil: _ = connection.waitForClose(timeout: .seconds(5))
        }
        context.console.print(json ? StopText(summary).json : StopText(summary).text)
        return summary.error == nil ? 0 : 1
    }

    /// The stop each box runs (`Forwarding` adds `--json` and `--host local`).
    var boxArguments: [String] { [Self.configuration.name] + ArgumentSpec.session.spelled(session) }
}
