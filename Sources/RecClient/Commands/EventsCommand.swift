import Foundation
import RecCore
import SessionControl

/// `rec events`: the motion events of running sessions (`rec start --motion`), or of a recording
/// from its index file, with the clips saved on motion.
struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "events",
        abstract: "List the motion events of a session, of every session, or of a recording's motion index.",
        discussion: "Sessions started with --motion keep a motion index beside their ring and beside each recording file (FILE.motion.jsonl). rec events asks the running sessions for theirs; given a recording or its index file, it reads the file, which a session killed with kill -9 leaves whole up to its last line. --from, --to and --last take the same times as rec save. --json adds the level of motion every 200 ms with --levels.",
        examples: [
            Example("The last hour's events of every session.", "rec events --all --last 1h"),
            Example("The events in a recording whose session has ended.", "rec events rec.mkv"),
        ]
    )
    static let arguments: [ArgumentSpec] = [
        .recordingIndex,
        .session, .everySession, .from, .to, .last, .levels, .json,
    ]

    var recording: String?
    var session: String
    var all: Bool
    var from: String?
    var to: String?
    var last: String?
    var levels: Bool
    var json: Bool

    init(_ values: ParsedValues) throws(RecError) {
        recording = try values.value(.recordingIndex)
        session = try values.require(.session)
        all = values.flag(.everySession)
        from = try values.value(.from)
        to = try values.value(.to)
        last = try values.value(.last)
        levels = values.flag(.levels)
        json = values.flag(.json)
    }

    func validate() throws(RecError) {
        if last != nil, from != nil || to != nil { throw .usage("--last takes the end of the session; give either --last or --from/--to") }
        if recording != nil, all { throw .usage("a recording's index holds one session; give the file or --all, not both") }
        if levels, !json { throw .usage("--levels adds the level of motion every 200 ms to --json; add --json") }
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        let request = EventsRequest(from: from.map(ControlTime.text), to: to.map(ControlTime.text), last: last.map(ControlTime.text), levels: levels)
        if let problem = request.selection.problem() { throw .usage(problem) }
        if let recording { return try runFile(recording, request, context) }
        let runtime = RuntimeDirectory.current()
        let names = all ? runtime.list().filter(\.isRunning).map(\.folder.name) : session.split(separator: ",").map(String.init)
        guard !names.isEmpty else { throw .runtime("no session is running; start one with 'rec start --motion'") }
        let answers = ControlClient.sendEach(names.map { ($0, .events(request)) }, runtime: runtime, timeout: .seconds(5))
        var reports: [EventsReport] = []
        var failed = 0
        for (name, answer) in zip(names, answers) {
            do throws(RecError) {
                guard case .events(let report) = try answer.get().get() else { throw RecError.runtime("the session answered with something else") }
                reports.append(report)
            } catch {
                failed += 1
                context.console.printError("rec: session '\(name)': \(error.message)")
            }
        }
        if json || !reports.isEmpty { context.console.print(json ? JSONText.encode(reports) : EventsText.text(reports)) }
        return failed == 0 ? 0 : 1
    }

    private func runFile(_ path: String, _ request: EventsRequest, _ context: CommandContext) throws(RecError) -> Int32 {
        let index = path.hasSuffix(".motion.jsonl") ? path : path + ".motion.jsonl"
        guard let text = try? String(contentsOfFile: index, encoding: .utf8) else {
            throw .runtime("cannot read the motion index \(index); a recording has one when its session ran with --motion")
        }
        let lines = text.split(separator: "\n").compactMap { MotionIndexLine(text: $0) }
        var range: Range<Double>?
        if request.from != nil || request.to != nil {
            func seconds(_ t: String?) throws(RecError) -> Double? {
                guard let t else { return nil }
                guard case .offset(let o) = try TimeParser.position(t) else {
                    throw .usage("a recording's index takes times from its start, such as --from 1m --to 2m")
                }
                return o.seconds
            }
            range = (try seconds(from) ?? 0)..<(try seconds(to) ?? .infinity)
        }
        let report = MotionIndexReader.report(lines, session: (path as NSString).lastPathComponent, levels: levels, range: range)
        context.console.print(json ? JSONText.encode([report]) : EventsText.text([report]))
        return 0
    }
}

extension ArgumentSpec {
    static let everySession = flag("all", help: "The events of every running session.")
    static let levels = flag("levels", help: "With --json, add the level of motion every 200 ms.")
    static let recordingIndex = positional("recording", optional: true, help: "A recording file or its .motion.jsonl index, read instead of asking a session.")
}

/// `rec events` as text: one line for each event, then the clips.
enum EventsText {
    static func text(_ reports: [EventsReport]) -> String {
        var lines: [String] = []
        for r in reports {
            guard r.motion else {
                lines.append("session '\(r.session)': no motion detection (start it with --motion)")
                continue
            }
            let now = r.moving ? String(format: "moving now (%.1f %% of the picture)", r.level * 100) : "still now"
            lines.append("session '\(r.session)': \(r.events.count) event\(r.events.count == 1 ? "" : "s"), \(now)")
            for e in r.events {
                var line = "  #\(e.id)  \(clock(e.start, r.wallclock))–\(clock(e.end, r.wallclock))  "
                    + String(format: "%.1f s, peak %.1f %%", e.length, e.peak * 100)
                if let b = e.box {
                    line += String(format: " at x %.0f–%.0f %%, y %.0f–%.0f %%", b.x * 100, (b.x + b.width) * 100, b.y * 100, (b.y + b.height) * 100)
                }
                lines.append(line)
            }
            for c in r.clips {
                lines.append("  clip \(c.error == nil ? c.path : "not saved: " + (c.error ?? ""))  \(clock(c.from, r.wallclock))–\(clock(c.to, r.wallclock))"
                             + "  (event\(c.events.count == 1 ? "" : "s") \(c.events.map(String.init).joined(separator: ", ")))")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Session time, and the wall-clock time when the session knows it.
    static func clock(_ seconds: Double, _ wallclock: Double?) -> String {
        let session = Timestamp(seconds: seconds).clockText
        guard let wallclock else { return session }
        let f = DateFormatter()
        f.dateFormat = "HH:mm:ss.SSS"
        return f.string(from: Date(timeIntervalSince1970: wallclock + seconds)) + " (" + session + ")"
    }
}
