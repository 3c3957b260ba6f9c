import Foundation
import RecCore

extension SaveCommand {
    /// `rec save --host … --upload DEST`: the clips do not come back. Each box's rec saves its
    /// clips on the box itself, named `BOX-SESSION` under `-o`'s naming (a relative `-o` is from
    /// the box login's home folder), and with `--upload DEST` its session queues each for DEST in
    /// its own store-and-forward queue, which outlasts a dead link or a killed rec. DEST is only
    /// parsed here: rclone and its configuration are the boxes'. Each clip is reported with its
    /// path on its box; a box that fails is reported and holds up no other; exit 1 if any clip is
    /// missing.
    func saveOnBoxes(_ boxes: BoxList, names: [String]?, range: (from: String, to: String), sentFrom: Double,
                     upload: String, timeout: Duration, _ context: CommandContext) throws(RecError) -> Int32 {
        let naming = try boxNaming(boxes: boxes, names: names, lookHere: false)
        _ = try Container.forClip(path: naming.path(box: "box", session: "session"))
        let shown = UploadDestination.redacting(upload)
        var jobs: [BoxRunner.Job] = []
        for (box, label) in zip(boxes.boxes, boxes.labels) {
            // One session: its clip's own name; else a pattern whose %s the box's rec fills in.
            let output = names?.count == 1 ? naming.path(box: label, session: names?[0] ?? "clip") : naming.pattern(box: label)
            jobs.append(BoxRunner.Job(box: box, arguments: boxUploadArguments(names: names, range: range, output: output, upload: upload)))
        }
        let runner = HostChoice.runner(context.environment, connect: .seconds(10), timeout: timeout)
        let answers = runner.run(jobs)
        var rows: [SavedClip] = []
        for (index, label) in boxes.labels.enumerated() {
            for var row in Self.clips(answers[index], sentFrom: sentFrom, asked: names) {
                row.box = label
                if row.save != nil { row.upload = shown }
                rows.append(row)
            }
        }
        return report(rows, context)
    }

    /// The save each box runs when its clips stay there: `names` (nil: every session), the
    /// wall-clock range as UTC texts, the clip's path on the box, and `--upload upload`.
    func boxUploadArguments(names: [String]?, range: (from: String, to: String), output: String, upload: String) -> [String] {
        var words = [Self.configuration.name] + Self.sessionArguments(names)
        words += ArgumentSpec.from.spelled(range.from) + ArgumentSpec.to.spelled(range.to) + ArgumentSpec.json.spelled()
        words += ArgumentSpec.outputFile.spelled(output) + ArgumentSpec.upload.spelled(upload)
        return words + ArgumentSpec.force.spelled(if: force) + boxOptions
    }
}
