import Foundation
import RecCore
import SessionControl

extension SaveCommand {
    /// `rec save --host …`: the same wall-clock range from the sessions of every box, all at once.
    /// Each box's rec saves into a temporary folder (on another box, one its login makes and
    /// removes), the clips come back into a hidden folder beside their final names, and each is
    /// moved to `BOX-SESSION` under `-o`'s naming. A box that does not answer, or fails, is
    /// reported and leaves the others' clips; exit 1 if any clip is missing. With `--upload` the
    /// clips stay on the boxes instead (`saveOnBoxes`).
    func runOnBoxes(_ boxes: BoxList, _ context: CommandContext) throws(RecError) -> Int32 {
        let now = Timestamp(seconds: Date().timeIntervalSince1970)
        let wall = try range.aligned(now: now)
        let (from, to) = wall.utcTexts
        let names = try boxSessionNames()
        if let uploadOnBoxes {
            return try saveOnBoxes(boxes, names: names, range: (from, to), sentFrom: wall.unixSeconds.from,
                                   upload: uploadOnBoxes, timeout: Self.saveTimeout(waitingAhead: wall.to.seconds - now.seconds), context)
        }
        let naming = try boxNaming(boxes: boxes, names: names, lookHere: true)
        let container = try Container.forClip(path: naming.path(box: "box", session: "session"))
        if let names {
            for label in boxes.labels {
                for name in names { try OutputPath.checkWritable(OutputFile.absolute(naming.path(box: label, session: name)), force: force) }
            }
        }
        // Each box's clips come back into a hidden folder beside where they go.
        var staging: [String] = []
        defer { for folder in staging { try? FileManager.default.removeItem(atPath: folder) } }
        for label in boxes.labels {
            staging.append(try ArrivingFiles.folder(beside: OutputFile.absolute(naming.path(box: label, session: "clip"))))
        }

        let output = names?.count == 1 ? "\(names?[0] ?? "clip").\(container.rawValue)" : "%s.\(container.rawValue)"
        let words = boxSaveWords(names: names, from: from, to: to, output: output)

        let runner = HostChoice.runner(context.environment, connect: .seconds(10),
                                       timeout: Self.saveTimeout(waitingAhead: wall.to.seconds - now.seconds) + .seconds(60))
        let jobs = zip(boxes.boxes, staging).map { BoxRunner.Job(box: $0, words: words, folder: $1) }
        let answers = runner.run(jobs)
        let sentFrom = wall.unixSeconds.from
        var rows: [SavedClip] = []
        for (index, label) in boxes.labels.enumerated() {
            for var row in Self.clips(answers[index], sentFrom: sentFrom, asked: names) {
                row.box = label
                // A name from the box becomes part of a path here: only a session name will do.
                if row.save != nil, !SessionName.isValid(row.session) {
                    rows.append(SavedClip(box: label, session: "?", error: "the box named a clip's session '\(row.session)', which is no session name"))
                } else if let report = row.save {
                    let path = OutputFile.absolute(naming.path(box: label, session: row.session))
                    rows.append(place(row, from: staging[index] + "/" + (report.path as NSString).lastPathComponent, to: path, context))
                } else {
                    rows.append(row)
                }
            }
        }
        return report(rows, context)
    }

    /// Prints the rows (`--json`: as an array) and says which clips are missing: exit 1 if any is.
    func report(_ rows: [SavedClip], _ context: CommandContext) -> Int32 {
        context.console.print(json ? JSONText.encode(rows) : rows.map(\.text).joined(separator: "\n"))
        let saved = rows.compactMap { $0.save?.path }
        notifySaved(saved, context)
        let failed = rows.filter { $0.error != nil }
        guard failed.isEmpty else {
            let kept = saved.isEmpty ? "" : "; the other clips are saved"
            let which = failed.map { "\($0.session) on \($0.box ?? "?")" }.joined(separator: ", ")
            context.console.printError("rec: \(failed.count) of \(rows.count) clips were not saved (\(which))\(kept)")
            return 1
        }
        return 0
    }

    /// The sessions each box saves from: nil for every session (`--all`).
    func boxSessionNames() throws(RecError) -> [String]? {
        switch several {
        case .all: nil
        case .named(let list): list
        case nil: [try SessionName.validate(session)]
        }
    }

    /// The save each box runs when its clips come back: `names` (nil: every session), the
    /// wall-clock range as UTC texts, the clips as `output` (a name or a `%s` pattern) in the
    /// command's temporary folder on the box.
    func boxSaveWords(names: [String]?, from: String, to: String, output: String) -> [RemoteCommand.Word] {
        var words = [Self.configuration.name] + Self.sessionArguments(names)
        words += ArgumentSpec.from.spelled(from) + ArgumentSpec.to.spelled(to) + ArgumentSpec.json.spelled()
        var remote = words.map(RemoteCommand.Word.literal)
        remote += [.literal(ArgumentSpec.outputFile.displayName), .inFolder(output)]
        // The clip comes back here: the box's session must not also queue a copy of a file its
        // temporary folder loses as soon as it is sent.
        return remote + (ArgumentSpec.noUpload.spelled() + boxOptions).map(RemoteCommand.Word.literal)
    }

    /// `--session a,b` for the sessions `names`, or `--all` for every session (`names` nil).
    static func sessionArguments(_ names: [String]?) -> [String] {
        names.map { ArgumentSpec.sessions.spelled($0.joined(separator: ",")) } ?? ArgumentSpec.allSessions.spelled()
    }

    /// The options of each box's save after its range and `--output`: those passed on as given,
    /// and `--host local` (it acts on its own sessions only, whatever its configuration lists).
    var boxOptions: [String] {
        ArgumentSpec.keyframe.spelled(if: keyframe) + ArgumentSpec.clear.spelled(if: clear) + HostChoice.onItsOwn
    }

    /// `-o` for clips from several boxes: a folder or a `%s` pattern as with several sessions,
    /// `%s` standing for `BOX-SESSION`; one file only for one session on one box. `lookHere`:
    /// whether a `-o` without `/` may name a folder of this box (not when the boxes keep the clips).
    func boxNaming(boxes: BoxList, names: [String]?, lookHere: Bool) throws(RecError) -> ClipNaming {
        if boxes.boxes.count == 1, names?.count == 1, outputGiven, let output, !output.hasSuffix("/"), !output.contains("%s") {
            var isDirectory: ObjCBool = false
            if !lookHere || !(FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) && isDirectory.boolValue) {
                return .pattern(output)
            }
        }
        if !lookHere, outputGiven, let output { return try ClipNaming(output: output, isFolder: false) }
        return try clipNaming()
    }

    /// The rows a box's save reported: its clips (paths in its folder), or why it has none.
    static func clips(_ answer: Result<BoxRunner.Answer, RecError>, sentFrom: Double, asked: [String]?) -> [SavedClip] {
        let who = asked?.joined(separator: ",") ?? "*"
        let reply: BoxRunner.Answer
        switch answer {
        case .failure(let error): return [SavedClip(box: nil, session: who, error: error.message)]
        case .success(let answer): reply = answer
        }
        // SaveReport and SavedClip name their keys as --json prints them.
        let decoder = JSONDecoder()
        if let rows = try? decoder.decode([SavedClip].self, from: reply.output) { return rows }
        if let report = try? decoder.decode(SaveReport.self, from: reply.output), let name = asked?.first {
            return [SavedClip(session: name, report: report, sentFrom: sentFrom)]
        }
        return [SavedClip(box: nil, session: who, error: reply.failure)]
    }

    /// Moves a clip from its box's folder to `path`; a failure to do so is the row's error.
    private func place(_ row: SavedClip, from staged: String, to path: String, _ context: CommandContext) -> SavedClip {
        var row = row
        do throws(RecError) {
            row.save?.path = try ArrivingFiles.place(staged, at: path, force: force, context: context)
        } catch {
            row.save = nil
            row.error = error.message
        }
        return row
    }
}
