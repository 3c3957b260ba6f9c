import Foundation
import RecCore
import SessionControl
import SystemIntegration

/// The sessions `rec save --session a,b,c` or `--all` saves from.
enum SessionChoice: Sendable, Equatable {
    case named([String])
    case all
}

extension SaveCommand {
    /// Saves the same wall-clock range from each session into a clip of its own, all at once,
    /// and reports each. Everything that can be refused is checked before any save starts (the
    /// sessions, the range, every output); a session that fails then leaves the others' clips.
    func runSeveral(_ choice: SessionChoice, _ context: CommandContext) throws(RecError) -> Int32 {
        let now = Timestamp(seconds: Date().timeIntervalSince1970)
        let runtime = RuntimeDirectory.current()
        let names = try Self.sessions(choice, runtime: runtime)
        let wall = try range.aligned(now: now)
        let naming = try clipNaming()
        let outputs = names.map { OutputFile.absolute(naming.path(for: $0)) }
        for path in outputs {
            _ = try Container.forClip(path: path)
            try OutputPath.checkWritable(path, force: force)
        }
        let (from, to) = wall.unixSeconds
        let requests = zip(names, outputs).map { name, path in
            var request = SaveRequest(from: .unix(from), to: .unix(to), output: path, keyframe: keyframe, clear: clear,
                                      force: force, upload: upload, noUpload: noUpload)
            // `--last`: a session younger than the range saves what it has, as one session's does.
            request.clampsStart = range.last != nil
            return (session: name, command: ControlCommand.save(request))
        }
        let answers = ControlClient.sendEach(requests, runtime: runtime,
                                             timeout: Self.saveTimeout(waitingAhead: wall.to.seconds - now.seconds))
        let rows = zip(names, answers).map { SavedClip(session: $0, answer: $1, sentFrom: from) }
        context.console.print(json ? JSONText.encode(rows) : rows.map(\.text).joined(separator: "\n"))
        let failed = rows.filter { $0.error != nil }.map(\.session)
        let saved = rows.compactMap { $0.save?.path }
        notifySaved(saved, context)
        guard failed.isEmpty else {
            let kept = saved.isEmpty ? "" : "; the other clips are saved"
            context.console.printError("rec: \(failed.count) of \(rows.count) sessions did not save (\(failed.joined(separator: ", ")))\(kept)")
            return 1
        }
        return 0
    }

    /// With --notify, a desktop notification listing the clips saved.
    func notifySaved(_ saved: [String], _ context: CommandContext) {
        guard notify, !saved.isEmpty else { return }
        do {
            try DesktopNotification.send(summary: "rec saved \(saved.count) clips", body: saved.joined(separator: "\n"))
        } catch {
            context.console.printError("rec: warning: the clips are saved, but " + error.message)
        }
    }

    /// The sessions to save from: every running one for `--all`; for a list, each must be running.
    static func sessions(_ choice: SessionChoice, runtime: RuntimeDirectory) throws(RecError) -> [String] {
        switch choice {
        case .all:
            let running = runtime.list().filter(\.isRunning).map(\.folder.name)
            if running.isEmpty { throw .runtime("no sessions are running; start one with 'rec start'") }
            return running
        case .named(let names):
            var missing: [String] = []
            for name in names {
                if case .running = try runtime.inspect(name) { continue }
                missing.append(name)
            }
            guard missing.isEmpty else {
                let running = runtime.list().filter(\.isRunning).map(\.folder.name)
                let those = running.isEmpty ? "none is running" : "running: " + running.joined(separator: ", ")
                let which = missing.count == 1 ? "no session '\(missing[0])' is running"
                    : "sessions " + missing.map { "'\($0)'" }.joined(separator: ", ") + " are not running"
                throw .usage("\(which) (\(those)); nothing was saved; 'rec status --all' lists the sessions")
            }
            return names
        }
    }

    /// How the clips are named: `-o` as a folder or a `%s` pattern, else the single save's name
    /// (the configured `output` pattern's, or `clip-…`) with `-SESSION` before its extension.
    func clipNaming() throws(RecError) -> ClipNaming {
        if outputGiven, let output {
            var isDirectory: ObjCBool = false
            let isFolder = FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) && isDirectory.boolValue
            return try ClipNaming(output: output, isFolder: isFolder)
        }
        let single = try outputPattern.map { pattern throws(RecError) in try UserConfig.fileName(pattern: pattern) }
        return .suffixed(single ?? OutputFile.defaultName(container: .mp4, prefix: "clip"))
    }
}

/// One session's part of a save from several: its report, or why it has none.
struct SavedClip: Codable {
    /// The box the session runs on, when the save asked several (`--host`).
    var box: String?
    var session: String
    var save: SaveReport?
    /// The saved range in wall-clock time (Unix seconds): the session's `saved` range moved by
    /// the offset its `requested` range shows between the wall clock and its timeline.
    var savedUnix: ControlSpan?
    var error: String?
    /// Where the box's session copies the clip (`rec save --host … --upload DEST`, secrets
    /// hidden); the clip stays on the box, at `save.path` there.
    var upload: String?

    /// The keys as `--json` prints them (SaveReport names its own), so a box's rows read back.
    private enum CodingKeys: String, CodingKey {
        case box, session, save, savedUnix = "saved_unix", error, upload
    }

    init(session: String, answer: Result<ControlReply, RecError>, sentFrom: Double) {
        do throws(RecError) {
            guard case .save(let report) = try answer.get().get() else {
                throw .runtime("session '\(session)' answered save with something else")
            }
            self.init(session: session, report: report, sentFrom: sentFrom)
        } catch {
            self.init(box: nil, session: session, error: error.message)
        }
    }

    init(session: String, report: SaveReport, sentFrom: Double) {
        self.session = session
        save = report
        if let requested = report.requested, let saved = report.saved {
            let zero = sentFrom - requested.from
            savedUnix = ControlSpan(from: zero + saved.from, to: zero + saved.to)
        }
    }

    init(box: String?, session: String, error: String) {
        self.box = box
        self.session = session
        self.error = error
    }

    /// `door: /home/ana/clips/door.mp4, 14:03:05.000–14:03:35.000, 900 frames (0:12.345–0:42.345 in the session)`.
    var text: String {
        let who = box.map { "\(session) on \($0)" } ?? session
        guard let save else { return "\(who): failed: \(error ?? "no answer")" }
        var line = "\(who): \(save.path)" + (upload == nil || box == nil ? "" : " on the box")
        if let wall = savedUnix {
            line += ", " + ISOTimeText.localTimeOfDay(Date(timeIntervalSince1970: wall.from)) + "–"
                + ISOTimeText.localTimeOfDay(Date(timeIntervalSince1970: wall.to))
        }
        line += ", \(save.frames ?? 0) frames"
        if let s = save.saved { line += " (\(TimeText.clock(s.from))–\(TimeText.clock(s.to)) in the session)" }
        if let note = SaveText.shortfallNote(save) { line += "; " + note }
        if let upload { line += ", queued for \(upload)" }
        return line
    }
}
