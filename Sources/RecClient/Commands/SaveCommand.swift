import Foundation
import RecCore
import SessionControl
import SystemIntegration

/// `rec save`: write part of a running session's buffer to a file.
struct SaveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "save",
        abstract: "Save frames from a running session's buffer into a clip.",
        discussion: "Times are on the session's timeline (0 is its first frame): 12s, 1:30, -30s (back from the newest frame), now, +20s (the save waits for it) or a wall-clock time such as 2026-11-29T14:03:05. The clip holds exactly the frames from --from up to, not including, --to. A range older than the buffer is read from the session's recording file.",
        examples: [
            Example("Save the last 20 seconds.", "rec save --last 20s -o clip.mkv"),
            Example("Save from 10 s ago until 20 s from now.", "rec save --from -10s --to +20s -o incident.mp4"),
        ]
    )
    static let arguments: [ArgumentSpec] = [
        .from, .to, .last,
        .output("The file to write the clip to."),
        .keyframe, .clear, .notify,
        .json, .session, .force,
    ]

    static let readsConfig = true

    var range: ClipRange
    var output: String?
    var keyframe: Bool
    var clear: Bool
    var notify: Bool
    var json: Bool
    var session: String
    var force: Bool

    init(_ values: ParsedValues) throws(RecError) {
        range = try ClipRange(values)
        output = try values.value(.outputFile)
        keyframe = values.flag(.keyframe)
        clear = values.flag(.clear)
        notify = values.flag(.notify)
        json = values.flag(.json)
        session = try values.require(.session)
        force = values.flag(.force)
    }

    func validate() throws(RecError) {
        try range.validate()
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        guard range.from != nil || range.to != nil || range.last != nil else {
            throw .usage("say which part to save: --from T --to T, or --last D (e.g. --last 30s, --from -45s --to -15s)")
        }
        let path = OutputFile.absolute(output ?? OutputFile.defaultName(container: .mp4, prefix: "clip"))
        _ = try Container.forClip(path: path)
        try OutputPath.checkWritable(path, force: force)
        let request = SaveRequest(from: range.from.map(ControlTime.text), to: range.to.map(ControlTime.text),
                                  last: range.last.map(ControlTime.text), output: path,
                                  keyframe: keyframe, clear: clear, force: force)
        // A future end (+20s) is waited for by the session; allow for it.
        var timeout = 120.0
        if let to = range.to, to.hasPrefix("+"), let ahead = try? TimeParser.duration(String(to.dropFirst())) {
            timeout += ahead.seconds
        }
        let reply = try ControlClient.send(.save(request), session: session, timeout: .milliseconds(Int64(timeout * 1000)))
        guard case .save(let report) = try reply.get() else { throw .runtime("the session answered save with something else") }
        if json {
            context.console.print(SaveText.json(report))
        } else {
            context.console.print(SaveText.text(report))
        }
        if notify {
            do {
                try DesktopNotification.send(summary: "rec saved a clip", body: report.path)
            } catch {
                context.console.printError("rec: warning: the clip is saved, but " + error.message)
            }
        }
        return 0
    }
}

private extension ArgumentSpec {
    static let clear = flag("clear", help: "Drop the buffer up to the end of the saved range, so the next save repeats nothing.")
    static let notify = flag("notify", help: "Send a desktop notification with the clip's path when the save is done.")
}
