import CaptureSetup
import Foundation
import Media
import RecClient
import RecCore
import Session
import SessionControl

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
        .buffer, .bufferSize,
        .output("The file that also receives the whole recording."),
        .noFile,
    ] + SegmentOptions.arguments + UploadOptions.arguments + LiveOptions.arguments + MotionOptions.arguments + MQTTOption.arguments + [
        .foreground, .startTimeout, .onSave, .usr1Last, .signalNotify,
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
    var uploads: UploadOptions
    var live: LiveOptions
    var motion: MotionOptions
    var mqtt: MQTTOption
    var foreground: Bool
    /// nil when not given: 5 s, or 20 s for a network camera (RecordingSetup).
    var startTimeout: String?
    var onSave: String?
    var usr1Last: String
    var notify: Bool
    /// The configured `output` pattern SIGUSR1 clips are named from, `~` expanded.
    var clipPattern: String?
    var force: Bool
    var json: Bool

    init(_ values: ParsedValues) throws(RecError) {
        session = try values.require(.session)
        capture = try CaptureOptions(values)
        buffer = try values.require(.buffer)
        bufferSize = try values.require(.bufferSize)
        output = try values.value(.outputFile)
        noFile = values.flag(.noFile)
        segments = try SegmentOptions(values)
        uploads = try UploadOptions(values)
        live = try LiveOptions(values)
        motion = try MotionOptions(values)
        mqtt = try MQTTOption(values)
        foreground = values.flag(.foreground)
        startTimeout = try values.value(.startTimeout)
        onSave = try values.value(.onSave)
        usr1Last = try values.require(.usr1Last)
        notify = values.flag(.signalNotify)
        clipPattern = values.outputPattern
        force = values.flag(.force)
        json = values.flag(.json)
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
        var capture = capture
        // The detached session's camera URL with its password, from `rec start` (never in argv).
        if context.environment[SessionLauncher.childVariable] == "1", capture.source == nil,
           let hidden = context.environment[SessionLauncher.sourceVariable] {
            capture.source = hidden
            // Not passed on to --on-save commands.
            unsetenv(SessionLauncher.sourceVariable)
        }
        var uploads = uploads
        if context.environment[SessionLauncher.childVariable] == "1", uploads.upload == nil,
           let hidden = context.environment[UploadOptions.hiddenVariable] {
            uploads.upload = hidden
            unsetenv(UploadOptions.hiddenVariable)
        }
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
        if let startTimeout { recorder.startTimeout = try TimeParser.duration(startTimeout).seconds }
        guard recorder.startTimeout > 0 else { throw .usage("--start-timeout must be longer than 0s, e.g. 5s") }
        var configuration = SessionConfiguration(name: name, recorder: recorder, ring: limits, onSave: onSave)
        _ = try TimeParser.duration(usr1Last)
        configuration.signalSpan = usr1Last
        configuration.signalClipPattern = OutputFile.absolute(clipPattern ?? "rec-%Y-%m-%d_%H-%M-%S.mp4")
        _ = try SegmentNaming(path: configuration.signalClipPattern)
        configuration.notifiesDesktop = notify
        try live.apply(to: &configuration)
        configuration.motion = try motion.configuration()
        var mqtt = mqtt, motionOptions = motion
        mqtt.url = mqtt.url ?? Self.hidden(MQTTOption.hiddenVariable, context)
        configuration.mqtt = try mqtt.address()
        motionOptions.source = motionOptions.source ?? Self.hidden(MotionOptions.hiddenVariable, context)
        configuration.motionSource = try motionOptions.sourceURL()
        let child = context.environment[SessionLauncher.childVariable] == "1"
        // Checked here, so a remote rclone does not know is refused before anything starts.
        let destination = try uploads.destination()
        if let destination, !child, let warning = try Uploader.check(destination) {
            context.console.printError("rec: warning: \(warning)")
        }
        configuration.uploadLimit = uploads.limit
        configuration.uploadJournal = Uploader.journalPath(recording: file?.path, session: name,
                                                           environment: ProcessInfo.processInfo.environment)
        configuration.upload = destination
        if foreground || child {
            if child { setsid() }
            let summary = try SessionProcess.run(configuration: configuration,
                                                 source: try setup.makeSource(container: file?.container ?? .mp4) {
                                                     context.console.printError("rec: warning: \($0)")
                                                 },
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
        let arguments = childArguments(output: file?.path, uploads: uploads)
        var hidden = setup.spec.hidesCredentials ? [SessionLauncher.sourceVariable: capture.source ?? ""] : [:]
        if uploads.hidesSecret, let upload = uploads.upload { hidden[UploadOptions.hiddenVariable] = upload }
        if mqtt.hidesSecret, let url = mqtt.url { hidden[MQTTOption.hiddenVariable] = url }
        if motion.hidesSecret, let url = motion.source { hidden[MotionOptions.hiddenVariable] = url }
        let status = try SessionLauncher.launch(arguments: arguments, session: name, runtime: runtime,
                                                timeout: recorder.startTimeout + 10, environment: hidden)
        print(started: status, folder: try runtime.folder(named: name), limits: limits, console: context.console)
        return 0
    }

    /// A secret the parent passed a detached session through `variable` (never argv), taken out
    /// of the environment so that `--on-save` commands do not inherit it.
    static func hidden(_ variable: String, _ context: CommandContext) -> String? {
        guard context.environment[SessionLauncher.childVariable] == "1", let value = context.environment[variable] else { return nil }
        unsetenv(variable)
        return value
    }

    /// The same session, spelled out for the detached process: every path already absolute.
    func childArguments(output: String?, uploads: UploadOptions? = nil) -> [String] {
        var a = [Self.configuration.name]
        func add(_ spec: ArgumentSpec, _ value: String?) { if let value { a += [spec.displayName, value] } }
        func add(_ spec: ArgumentSpec, if given: Bool) { if given { a.append(spec.displayName) } }
        add(.session, session)
        add(.foreground, if: true)
        add(.buffer, buffer)
        add(.bufferSize, bufferSize)
        add(.startTimeout, startTimeout)
        // A URL with credentials goes through the environment (`SessionLauncher.sourceVariable`).
        if !((try? SourceSpec.parse(capture.source))?.hidesCredentials ?? false) {
            add(.source, capture.source.map { s in s.hasPrefix("file:") ? "file:" + OutputFile.absolute(String(s.dropFirst(5))) : s })
        }
        add(.preset, capture.preset.map { p in p.contains("/") ? OutputFile.absolute(p) : p })
        add(.size, capture.size)
        add(.fps, capture.fps.map { String($0) })
        for f in capture.filters { add(.filter, f) }
        for c in capture.controls { add(.control, c) }
        add(.duration, capture.duration)
        add(.pixelFormat, capture.pixelFormat)
        add(.onUnplug, capture.onUnplug)
        add(.cursor, capture.cursor)
        for s in capture.audio { add(.audio, s) }
        if let output { add(.outputFile, output); a += segments.arguments } else { add(.noFile, if: true) }
        a += (uploads ?? self.uploads).arguments
        add(.onSave, onSave)
        add(.usr1Last, usr1Last)
        add(.signalNotify, if: notify)
        a += live.arguments
        a += motion.arguments
        a += mqtt.arguments
        add(.force, if: force)
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

extension ArgumentSpec {
    static let buffer = option("buffer", value: "time", default: "5m", help: "How much recent video to keep in memory.")
    static let bufferSize = option("buffer-size", value: "bytes", default: "1G", help: "The most memory the buffer may use, such as 256M.")
    static let foreground = flag("foreground", help: "Run the session in this process instead of in the background.")
    static let startTimeout = option(
        "start-timeout", value: "time", help: "How long to wait for the first frame before giving up (5s; 20s for a network camera, which may send its first keyframe seconds after it answers)."
    )
    static let onSave = option("on-save", value: "command", help: "A command to run after each save, given the clip's path.")
    static let usr1Last = option(
        "usr1-last", value: "time", default: "30s",
        help: "How much to save when the session receives SIGUSR1, named from the configured output pattern."
    )
    static let signalNotify = flag("notify", help: "Send a desktop notification with the clip's path after each SIGUSR1 save.")
}
