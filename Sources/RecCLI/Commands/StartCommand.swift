import Foundation
import Media
import RecClient
import RecCore
import Session

/// `rec start`: begin a background session that keeps recent frames in a ring buffer.
struct StartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "start",
        abstract: "Start a background session that keeps recent frames ready for 'rec save'.",
        examples: [
            Example("Keep the last minute from the first camera.", "rec start --source /dev/video0 --buffer 60s --no-file"),
        ]
    )
    static let arguments: [ArgumentSpec] = [.session] + CaptureOptions.arguments + [
        .option("buffer", value: "time", default: "5m", help: "How much recent video to keep in memory."),
        .option("buffer-size", value: "bytes", default: "1G", help: "The most memory the buffer may use, such as 256M."),
        .output("The file that also receives the whole recording."),
        .flag("no-file", help: "Keep frames only in the buffer and write no recording file."),
    ] + SegmentOptions.arguments + LiveOptions.arguments + [
        .flag("foreground", help: "Run the session in this process instead of in the background."),
        .option("start-timeout", value: "time", default: "5s", help: "How long to wait for the first frame before giving up."),
        .option("on-save", value: "command", help: "A command to run after each save, given the clip's path."),
        .option("usr1-last", value: "time", default: "30s",
                help: "How much to save when the session receives SIGUSR1, named from the configured output pattern."),
        .flag("notify", help: "Send a desktop notification with the clip's path after each SIGUSR1 save."),
        .force, .json,
    ]

    static let readsConfig = true

    var session: String
    var capture: CaptureOptions
    var buffer: String
    var bufferSize: String
    var output: String?
    var noFile: Bool
    var segments: SegmentOptions
    var live: LiveOptions
    var foreground: Bool
    var startTimeout: String
    var onSave: String?
    var usr1Last: String
    var notify: Bool
    /// The configured `output` pattern SIGUSR1 clips are named from, `~` expanded.
    var clipPattern: String?
    var force: Bool
    var json: Bool

    init(_ values: ParsedValues) throws(RecError) {
        session = try values.require("session")
        capture = try CaptureOptions(values)
        buffer = try values.require("buffer")
        bufferSize = try values.require("buffer-size")
        output = try values.value("output")
        noFile = values.flag("no-file")
        segments = try SegmentOptions(values)
        live = try LiveOptions(values)
        foreground = values.flag("foreground")
        startTimeout = try values.require("start-timeout")
        onSave = try values.value("on-save")
        usr1Last = try values.require("usr1-last")
        notify = values.flag("notify")
        clipPattern = values.outputPattern
        force = values.flag("force")
        json = values.flag("json")
    }

    func validate() throws(RecError) {
        if noFile, output != nil {
            throw .usage("--no-file and --output contradict each other; give only one")
        }
        if noFile, segments.segment != nil {
            throw .usage("--segment cuts the recording file into parts, and --no-file writes none; give only one")
        }
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        FFmpegLog.quiet()
        let name = try SessionName.validate(session)
        let runtime = RuntimeDirectory.current()
        try runtime.checkAvailable(name)
        let setup = try RecordingSetup(capture: capture, environment: context.environment)
        var file: RecorderConfiguration.Output? = nil
        if !noFile {
            let path = OutputFile.absolute(output ?? OutputFile.defaultName(container: setup.choice.container))
            file = try segments.output(path: path, container: try setup.container(for: path), force: force)
        }
        let limits = RingLimits(maxDuration: try TimeParser.duration(buffer), maxBytes: try ByteSize.parse(bufferSize))
        guard limits.maxDuration >= Timestamp(seconds: 1) else {
            throw .usage("--buffer \(buffer) is too short to hold two keyframes; give at least 1s, e.g. --buffer 5m")
        }
        guard limits.maxBytes >= RingLimits.smallestBytes else {
            throw .usage("--buffer-size \(bufferSize) is less than the \(ByteSize.text(RingLimits.smallestBytes)) a ring needs "
                         + "to hold two keyframes; give a size such as 64M (a number alone counts bytes)")
        }
        var recorder = setup.configuration(output: file, pace: .realtime)
        recorder.keepsRingWhenFileFails = true
        recorder.startTimeout = try TimeParser.duration(startTimeout).seconds
        guard recorder.startTimeout > 0 else { throw .usage("--start-timeout must be longer than 0s, e.g. 5s") }
        var configuration = SessionConfiguration(name: name, recorder: recorder, ring: limits, onSave: onSave)
        _ = try TimeParser.duration(usr1Last)
        configuration.signalSpan = usr1Last
        configuration.signalClipPattern = OutputFile.absolute(clipPattern ?? "rec-%Y-%m-%d_%H-%M-%S.mp4")
        _ = try SegmentNaming(path: configuration.signalClipPattern)
        configuration.notifiesDesktop = notify
        try live.apply(to: &configuration)
        let child = context.environment[SessionLauncher.childVariable] == "1"
        if foreground || child {
            if child { setsid() }
            let summary = try SessionProcess.run(configuration: configuration,
                                                 source: try setup.makeSource { context.console.printError("rec: warning: \($0)") },
                                                 sounds: try setup.makeSounds(), runtime: runtime) { folder, status in
                if child {
                    SessionLauncher.detachOutput(log: folder.logPath)
                } else {
                    print(started: status, folder: folder, limits: limits, console: context.console)
                }
            }
            if !child { context.console.print(json ? StopText(summary).json : StopText(summary).text) }
            return summary.error == nil ? 0 : 1
        }
        let arguments = childArguments(output: file?.path)
        let status = try SessionLauncher.launch(arguments: arguments, session: name, runtime: runtime,
                                                timeout: recorder.startTimeout + 10)
        print(started: status, folder: try runtime.folder(named: name), limits: limits, console: context.console)
        return 0
    }

    /// The same session, spelled out for the detached process: every path already absolute.
    private func childArguments(output: String?) -> [String] {
        var a = ["start", "--session", session, "--foreground", "--buffer", buffer, "--buffer-size", bufferSize,
                 "--start-timeout", startTimeout]
        if let s = capture.source {
            a += ["--source", s.hasPrefix("file:") ? "file:" + OutputFile.absolute(String(s.dropFirst(5))) : s]
        }
        if let p = capture.preset { a += ["--preset", p.contains("/") ? OutputFile.absolute(p) : p] }
        if let s = capture.size { a += ["--size", s] }
        if let f = capture.fps { a += ["--fps", String(f)] }
        for f in capture.filters { a += ["--filter", f] }
        for c in capture.controls { a += ["--control", c] }
        if let d = capture.duration { a += ["--duration", d] }
        if let p = capture.pixelFormat { a += ["--pixel-format", p] }
        a += ["--on-unplug", capture.onUnplug]
        for s in capture.audio { a += ["--audio", s] }
        if let output { a += ["--output", output] + segments.arguments } else { a.append("--no-file") }
        if let onSave { a += ["--on-save", onSave] }
        a += ["--usr1-last", usr1Last] + (notify ? ["--notify"] : [])
        a += live.arguments
        if force { a.append("--force") }
        return a
    }

    private func print(started s: StatusBody, folder: SessionFolder, limits: RingLimits, console: Console) {
        if json {
            var s = s
            if let url = folder.readLiveURL() { s.extra = (s.extra ?? [:]).merging(["live_url": url]) { _, b in b } }
            console.print(StatusText.json(s))
            return
        }
        console.print("session '\(s.session ?? session)' started; it runs in the background until 'rec stop\(session == "default" ? "" : " --session " + session)'")
        console.print("  source  \(s.source ?? "?"): \(s.mode ?? "?")")
        console.print("  output  \(s.output ?? "none (ring only)")")
        console.print("  buffer  the last \(limits.maxDuration.clockText) or \(ByteSize.text(limits.maxBytes)), whichever is smaller")
        console.print("  log     \(folder.logPath)")
        if let url = folder.readLiveURL() { console.print("  live    \(url)") }
    }
}
