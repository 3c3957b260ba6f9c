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
