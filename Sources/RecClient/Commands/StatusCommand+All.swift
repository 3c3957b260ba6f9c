import Foundation
import RecCore
import SessionControl

extension StatusCommand {
    /// `rec status --all`: every session folder, the running ones asked for their status all at
    /// once, so a session that does not answer costs the listing `answerTimeout`, not its share
    /// of a queue. Exits 0 whatever the sessions say: the rows say it.
    func runAll(_ context: CommandContext, runtime: RuntimeDirectory) -> Int32 {
        let listings = runtime.list()
        let running = listings.filter(\.isRunning)
        let answers = ControlClient.sendEach(running.map { ($0.folder.name, .status()) }, runtime: runtime, timeout: answerTimeout)
        let byName = Dictionary(uniqueKeysWithValues: zip(running.map(\.folder.name), answers))
        let rows = listings.map { SessionRow($0, answer: byName[$0.folder.name]) }
        context.console.print(json ? JSONText.encode(rows) : SessionTable.text(rows))
        return 0
    }
}

extension StatusCommand {
    /// `rec status` on other boxes (`--host`). With `--all`: every box asked at once for all its
    /// sessions, the rows merged with a BOX column, a box that did not answer as a row of its own
    /// (exit 1, since its sessions could not be listed). Without: each box's answer under its name.
    func runOnBoxes(_ boxes: BoxList, _ context: CommandContext) -> Int32 {
        guard all else {
            let waiting = Duration.milliseconds(Int64((wait?.seconds ?? 0) * 1000))
            let runner = HostChoice.runner(context.environment, connect: .seconds(10), timeout: answerTimeout + waiting + .seconds(15))
            return Forwarding.run(boxArguments, json: json, boxes: boxes, runner: runner, context: context)
        }
        let runner = HostChoice.runner(context.environment, connect: answerTimeout, timeout: answerTimeout * 2 + .seconds(3))
        let answers = runner.run(boxes.boxes.map { BoxRunner.Job(box: $0, arguments: boxListArguments) })
        var rows: [SessionRow] = []
        var failed = 0
        for (label, answer) in zip(boxes.labels, answers) {
            switch SessionRow.decodeList(answer) {
            case .success(let list):
                rows += list.map { row in
                    var row = row
                    row.box = label
                    return row
                }
            case .failure(let error):
                failed += 1
                var row = SessionRow(session: "-", state: SessionRow.notAnswering, lastError: error.message)
                row.box = label
                rows.append(row)
            }
        }
        context.console.print(json ? JSONText.encode(rows) : SessionTable.text(rows))
        return failed == 0 ? 0 : 1
    }
}

extension StatusCommand {
    /// The status of one session each box runs (`Forwarding` adds `--json` and `--host local`):
    /// the session and the wait as given.
    var boxArguments: [String] {
        var arguments = [Self.configuration.name] + ArgumentSpec.session.spelled(session)
        arguments += ArgumentSpec.waitFrames.spelled(wait?.frames.map { String($0) })
        arguments += ArgumentSpec.waitUntil.spelled(wait?.ringEnd.map { String($0) })
        arguments += ArgumentSpec.waitError.spelled(if: wait?.error == true)
        return arguments + ArgumentSpec.timeout.spelled(timeoutText)
    }

    /// `rec status --all --json` as each box runs it for the merged table, from its own sessions only.
    var boxListArguments: [String] {
        let arguments = [Self.configuration.name] + ArgumentSpec.allRunning.spelled() + ArgumentSpec.json.spelled()
        return arguments + ArgumentSpec.timeout.spelled(timeoutText) + HostChoice.onItsOwn
    }
}

extension SessionRow {
    /// The rows a box's `rec status --all --json` printed, or why there are none.
    static func decodeList(_ answer: Result<BoxRunner.Answer, RecError>) -> Result<[SessionRow], RecError> {
        answer.flatMap { reply in
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            guard reply.status == 0, let rows = try? decoder.decode([SessionRow].self, from: reply.output) else {
                return .failure(.runtime(reply.failure))
            }
            return .success(rows)
        }
    }
}
