import CaptureSetup
import Foundation
import Media
import RecClient
import RecCore
import Session
import SessionControl

/// `rec record`: capture frames from a source and encode them into a file.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "record",
        abstract: "Record frames from a camera, a test pattern or a file into a video file.",
        examples: [
            Example("Record ten seconds from the first camera.", "rec record --source /dev/video0 --duration 10s -o cam.mkv"),
            Example("Record 300 frames of the test pattern as fast as possible.", "rec record --source test --frames 300 --pace off -o test.mkv"),
        ]
    )
    static let arguments: [ArgumentSpec] = CaptureOptions.arguments + [
        .pace, .frames,
        .output("The file to record into; its extension picks the container."),
    ] + SegmentOptions.arguments + UploadOptions.arguments + [
        .force, .json,
    ]

    static let readsConfig = true

    /// How fast a test pattern or file source delivers frames.
    enum Pace: String, CaseIterable, ArgumentValue {
        case realtime, off
    }

    var capture: CaptureOptions
    var pace: Pace
    var frames: Int?
    var output: String?
    var segments: SegmentOptions
    var uploads: UploadOptions
    var force: Bool
    var json: Bool

    init(_ values: ParsedValues) throws(RecError) {
        capture = try CaptureOptions(values)
        pace = try values.require(.pace)
        frames = try values.value(.frames)
        output = try values.value(.outputFile)
        segments = try SegmentOptions(values)
        uploads = try UploadOptions(values)
        force = values.flag(.force)
        json = values.flag(.json)
    }

    func validate() throws(RecError) {
        if let frames, frames < 1 {
            throw .usage("--frames \(frames) records nothing; give a count of 1 or more, or leave it out")
        }
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        FFmpegLog.quiet()
        let console = context.console
        let setup = try RecordingSetup(capture: capture, environment: context.environment)
        let path = OutputFile.absolute(output ?? OutputFile.defaultName(container: setup.choice.container))
        let container = try setup.container(for: path)
        if case .file(let input) = setup.spec, OutputPath.same(OutputFile.absolute(input), path) {
            throw .usage("-o \(output ?? path) is the source file itself; recording into it would destroy it, so choose another -o")
        }
        var output = try segments.output(path: path, container: container, force: force)
        let uploader = try uploads.uploader(output: path, session: "record", notify: false) { console.printError("rec: upload: \($0)") }
        output.observer = uploader
        var configuration = setup.configuration(output: output, pace: pace == .off ? .off : .realtime)
        configuration.frameLimit = frames
        // Installed before the source opens: a stop sent while rec starts is kept, not lost.
        let signals = StopSignals()
        let recorder = Recorder(source: try setup.makeSource(container: container) { console.printError("rec: warning: \($0)") },
                                sounds: try setup.makeSounds(), configuration: configuration)
        // The first stop ends the recording; one while the last files are copied ends the copying.
        signals.whenStopped {
            if recorder.isFinished { uploader?.abandon() }
            recorder.requestStop()
        }
        defer { withExtendedLifetime(signals) {} }
        try recorder.waitUntilStarted()
        if console.isTTY && !json {
            while !recorder.waitUntilFinished(seconds: 0.5) {
                console.writeOutput("\r\u{1B}[K" + StatusLine.line(recorder.currentStats))
            }
            console.writeOutput("\r\u{1B}[K")
        } else {
            recorder.waitUntilFinished()
        }
        // Every file is finished and queued: copy what is left before exiting (Ctrl-C gives up;
        // the queue is kept for the next run).
        if let uploader {
            uploader.finish(drainSeconds: .infinity)
            if uploader.waiting > 0 {
                console.printError("rec: warning: \(uploader.waiting) files are not copied yet; they stay queued in "
                                   + "\(uploader.journalPath), and the next rec record or rec start with the same -o and --upload copies them")
            }
        }
        let stats = recorder.currentStats
        if json {
            console.print(RecordingSummary(stats: stats, preset: setup.choice.name, segments: recorder.segments.count).json)
        } else {
            console.print(RecordingSummary(stats: stats, preset: setup.choice.name, segments: recorder.segments.count).text)
        }
        if let failure = stats.sound?.failure, stats.state != .failed { console.printError("rec: warning: \(failure)") }
        if let error = stats.lastError, stats.state == .failed {
            console.printError("rec: \(error)")
            return 1
        }
        return 0
    }
}

private extension ArgumentSpec {
    static let pace = option(
        "pace", value: "pace", default: RecordCommand.Pace.realtime.rawValue, choices: RecordCommand.Pace.allValueStrings,
        help: "Whether a test pattern or file delivers frames at their frame rate or as fast as possible."
    )
    static let frames = option("frames", value: "count", help: "Stop after this many frames.")
}
