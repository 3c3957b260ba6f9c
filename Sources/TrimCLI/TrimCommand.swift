import Foundation
import Media
import RecClient
import RecCore
import SessionControl

/// `rec trim`: cut a frame-exact clip out of a recording.
package struct TrimCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        name: "trim",
        abstract: "Cut a frame-exact clip out of a recording.",
        discussion: "By default the clip holds exactly the frames from --from up to --to in every player: rec copies whole groups of pictures and re-encodes only the frames before the first copied keyframe and those that depend on a frame at or after --to. --edit-list re-encodes nothing in MP4/MOV and hides the extra frames with an edit list instead, which mpv 0.35 ignores (it shows them).",
        examples: [
            Example("Cut seconds 12 to 15 of a recording.", "rec trim in.mkv --from 12s --to 15s -o clip.mkv"),
            Example("Show what the last five seconds would take without writing a file.", "rec trim in.mkv --last 5s --dry-run"),
        ]
    )
    package static let arguments: [ArgumentSpec] = [
        .input,
        .from, .to, .last,
        .output("The file to write the clip to."),
        .keyframe, .editList, .reencode, .preset, .dryRun,
        .force, .json,
    ]

    var input: String
    var range: ClipRange
    var output: String?
    var keyframe: Bool
    var editList: Bool
    var reencode: Bool
    var preset: String?
    var dryRun: Bool
    var force: Bool
    var json: Bool

    package init(_ values: ParsedValues) throws(RecError) {
        input = try values.require(.input)
        range = try ClipRange(values)
        output = try values.value(.outputFile)
        keyframe = values.flag(.keyframe)
        editList = values.flag(.editList)
        reencode = values.flag(.reencode)
        preset = try values.value(.preset)
        dryRun = values.flag(.dryRun)
        force = values.flag(.force)
        json = values.flag(.json)
    }

    package func validate() throws(RecError) {
        try range.validate()
        if keyframe, reencode {
            throw .usage("--keyframe copies packets and --reencode re-encodes them; give only one")
        }
        if editList, reencode {
            throw .usage("--edit-list copies packets and --reencode re-encodes them; give only one")
        }
    }

    package func run(_ context: CommandContext) throws(RecError) -> Int32 {
        FFmpegLog.quiet()
        let console = context.console
        let inputPath = OutputFile.absolute(input)
        guard FileManager.default.fileExists(atPath: inputPath) else {
            throw .usage("no such file: \(input)")
        }
        var info = stat()
        if stat(inputPath, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            throw .usage("\(input) is not a regular file, and a cut must seek in its input; "
                         + "record the stream into a file first (rec record --source file:\(input) -o in.mkv), then trim that")
        }
        guard range.from != nil || range.to != nil || range.last != nil else {
            throw .usage("say which part to keep: --from T --to T, or --last D (e.g. --from 1:02 --to 1:30)")
        }
        var outputPath: String? = nil
        var container = ContainerFormat(path: inputPath) ?? .mkv
        let origin: Timestamp
        let read: (source: FileClip, from: Timestamp, to: Timestamp)
        let mode: CutPlan.Mode = keyframe ? .keyframe : .exact
        let strategy: CutPlan.Strategy = editList ? .editList : .spliceReencode
        // The scan's demuxer (the file's index, a decoded probe frame) is let go before the clip
        // opens the file again to stream the packets, so a cut never holds two of them. A long
        // range of a file whose samples must be read to scan it is written as it is read, once.
        do {
            let reader = try FileClipReader(path: inputPath)
            guard let length = reader.length else {
                throw .usage("\(input) does not say how long it is, so rec cannot place the cut; remux it first (ffmpeg -i in -c copy out.mkv)")
            }
            let wanted = try range.selection().resolve(on: Timeline(availableStart: .zero, availableEnd: length))
            if let output {
                let path = OutputFile.absolute(output)
                container = try OutputFile.container(for: path, presetContainer: container)
                if OutputPath.same(path, inputPath) { throw .usage("the clip cannot overwrite its own input; choose another -o") }
                if !dryRun { try OutputPath.checkWritable(path, force: force) }
                outputPath = path
            } else if !dryRun {
                throw .usage(Self.noOutput)
            }
            if editList && !container.hasEditLists {
                throw .usage("--edit-list needs an MP4 or MOV output; Matroska and WebM have no edit lists, so leave it out for an exact cut")
            }
            if let outputPath, !dryRun, !reencode,
               reader.writesAsItReads(from: wanted.lowerBound, to: wanted.upperBound, into: container) {
                try container.check(codec: reader.video.parameters.codecName)
                let bar = progressBar(console)
                let report = try reader.cut(from: wanted.lowerBound, to: wanted.upperBound, mode: mode, strategy: strategy,
                                            into: outputPath, container: container, options: .init(progress: bar))
                printReport(report, origin: reader.start, console: console, bar: bar != nil)
                return 0
            }
            read = try reader.read(from: wanted.lowerBound, to: wanted.upperBound)
            origin = reader.start
        }
        let plan = try CutPlanner.plan(packets: read.source.timings, timeBase: read.source.timeBase, from: read.from, to: read.to,
                                       mode: mode, strategy: strategy)
        if dryRun {
            console.print(json ? ClipReportText(plan: plan, path: nil, bytes: nil, origin: origin).json : plan.summary)
            return 0
        }
        guard let outputPath else { throw .usage(Self.noOutput) }
        var settings: EncoderSettings? = nil
        if reencode {
            settings = try EncodingChoice.resolve(preset: preset, environment: context.environment,
                                              hardware: HardwareProbe.machine).settings
        } else {
            try container.check(codec: read.source.video.parameters.codecName)
        }
        let bar = progressBar(console)
        let report = try ClipWriter.write(read.source, plan: plan, to: outputPath, container: container,
                                          reencode: settings, progress: bar)
        printReport(report, origin: origin, console: console, bar: bar != nil)
        return 0
    }

    /// A progress bar on a terminal, for long cuts.
    private func progressBar(_ console: Console) -> ((Double) -> Void)? {
        guard console.isTTY && !json else { return nil }
        return { share in
            let filled = Int(share * 30)
            console.writeOutput("\r[" + String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled)
                                + "] \(Int(share * 100))%")
        }
    }

    private func printReport(_ report: ClipWriter.Report, origin: Timestamp, console: Console, bar: Bool) {
        if bar { console.writeOutput("\r\u{1B}[K") }
        let text = ClipReportText(plan: report.plan, path: report.path, bytes: report.bytes, origin: origin)
        console.print(json ? text.json : text.text)
        if !json { for note in report.leftOut { console.print("  left out: \(note)") } }
    }

    /// Also said at the write, where `-o` is known to be there (a dry run has returned).
    private static let noOutput = "say where to write the clip with -o FILE (or use --dry-run to see the plan)"
}

private extension ArgumentSpec {
    static let input = positional("input", help: "The recording to cut.")
    static let editList = flag(
        "edit-list", help: "In MP4/MOV, copy only and hide the frames outside the range with an edit list, which not every player honours."
    )
    static let reencode = flag("reencode", help: "Re-encode the whole clip instead of copying packets.")
    static let dryRun = flag("dry-run", help: "Print which frames would be copied or re-encoded, and write nothing.")
}
