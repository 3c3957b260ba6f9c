import Foundation
import RecCore
import SessionControl
import SystemIntegration

/// `rec save`: write part of a running session's buffer to a file.
struct SaveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "save",
        abstract: "Save frames from a running session's buffer into a clip.",
        discussion: "Times are on the session's timeline (0 is its first frame): 12s, 1:30, -30s (back from the newest frame), now, +20s (the save waits for it) or a wall-clock time such as 2026-11-29T14:03:05. The clip holds exactly the frames from --from up to, not including, --to. A range older than the buffer is read from the session's recording file. With several sessions (--session a,b,c or --all) each saves the same wall-clock range into a clip of its own, all at once: -20s, now, +20s and --last count from the moment of the command, times from a session's start are refused, and -o names a folder (clips/ writes clips/SESSION.mp4) or a pattern where %s is the session's name. With --host the clips come back over ssh, named BOX-SESSION; with --host and --upload DEST they stay on each box instead (-o from its login's home folder) and its session copies them to DEST.",
        examples: [
            Example("Save the last 20 seconds.", "rec save --last 20s -o clip.mkv"),
            Example("Save from 10 s ago until 20 s from now.", "rec save --from -10s --to +20s -o incident.mp4"),
            Example("Save the same 30 seconds from three cameras into clips/door.mp4 and so on.",
                    "rec save --session door,yard,garage --from 2026-11-29T14:03:05 --to 2026-11-29T14:03:35 -o clips/"),
        ]
    )
    static let arguments: [ArgumentSpec] = [
        .from, .to, .last, .upload, .noUpload,
        .output("The file to write the clip to; with several sessions, a folder or a name with %s for the session."),
        .keyframe, .clear, .notify,
        .json, .sessions, .allSessions, .force, .host,
    ]

    static let readsConfig = true

    var range: ClipRange
    var output: String?
    var keyframe: Bool
    var clear: Bool
    var notify: Bool
    /// `--upload`: also copy the clip there (a local folder made absolute).
    var upload: String?
    /// `--upload` as given on the command line, for the boxes of `--host` (a relative folder is
    /// each box's own, from its login's home folder); a configured `upload` is this box's only.
    var uploadOnBoxes: String?
    /// `--no-upload`: copy this clip nowhere, even when the session copies every clip.
    var noUpload: Bool
    var json: Bool
    /// The one session to save from; `several` when --session names more or --all is given.
    var session: String
    var several: SessionChoice?
    var force: Bool
    /// Whether -o was given on the command line (not taken from the configuration).
    var outputGiven: Bool
    /// The configured `output` pattern, time fields unexpanded, for naming several clips.
    var outputPattern: String?
    var hosts: [String]

    init(_ values: ParsedValues) throws(RecError) {
        hosts = try HostChoice.given(values)
        range = try ClipRange(values)
        output = try values.value(.outputFile)
        keyframe = values.flag(.keyframe)
        clear = values.flag(.clear)
        notify = values.flag(.notify)
        upload = try values.value(.upload).map { text in
            UploadDestination.isLocal(text) && !text.hasPrefix("/") ? OutputFile.absolute(text) : text
        }
        noUpload = values.flag(.noUpload)
        if noUpload {
            if values.isSet(.upload) { throw .usage("give --upload DEST or --no-upload, not both") }
            upload = nil
        }
        uploadOnBoxes = values.isSet(.upload) ? try values.value(.upload) : nil
        json = values.flag(.json)
        session = try values.require(.sessions)
        force = values.flag(.force)
        outputGiven = values.isSet(.outputFile)
        outputPattern = values.outputPattern
        if values.flag(.allSessions) {
            if values.isSet(.sessions) { throw .usage("give --session a,b,c or --all, not both") }
            several = .all
        } else if session.contains(",") {
            several = .named(try SessionName.list(session))
        }
    }

    func validate() throws(RecError) {
        try range.validate()
        if let upload { _ = try UploadDestination(upload) }
        guard range.from != nil || range.to != nil || range.last != nil else {
            throw .usage("say which part to save: --from T --to T, or --last D (e.g. --last 30s, --from -45s --to -15s)")
        }
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        let boxes = try HostChoice.boxes(hosts, all: several == .all, environment: context.environment)
        if !boxes.isLocalOnly { return try runOnBoxes(boxes, context) }
        if let several { return try runSeveral(several, context) }
        let path = OutputFile.absolute(output ?? OutputFile.defaultName(container: .mp4, prefix: "clip"))
        _ = try Container.forClip(path: path)
        try OutputPath.checkWritable(path, force: force)
        let request = SaveRequest(from: range.from.map(ControlTime.text), to: range.to.map(ControlTime.text),
                                  last: range.last.map(ControlTime.text), output: path,
                                  keyframe: keyframe, clear: clear, force: force, upload: upload, noUpload: noUpload)
        // A future end (+20s) is waited for by the session; allow for it.
        var ahead = 0.0
        if let to = range.to, to.hasPrefix("+"), let time = try? TimeParser.duration(String(to.dropFirst())) {
            ahead = time.seconds
        }
        let reply = try ControlClient.send(.save(request), session: session, timeout: Self.saveTimeout(waitingAhead: ahead))
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
        // Recorded but no longer anywhere: a shorter clip must not look like success to a script.
        if report.shortfall == .notHeld, let note = SaveText.shortfallNote(report) {
            context.console.printError("rec: \(report.path) is kept, but \(note); a longer --buffer keeps more")
            return 1
        }
        return 0
    }
}

extension SaveCommand {
    /// How long a save may take: two minutes to write the clip, plus the wait for an end that
    /// lies `seconds` ahead.
    static func saveTimeout(waitingAhead seconds: Double) -> Duration {
        .milliseconds(Int64((120 + min(max(0, seconds), ControlTime.maxSeconds)) * 1000))
    }
}

/// Internal, not private: the boxes' saves (`SaveCommand+Hosts`, `+BoxUpload`) are spelled with them.
extension ArgumentSpec {
    static let sessions = option(
        "session", value: "name", default: "default",
        help: "The background session to save from, or several separated by commas, such as door,yard,garage."
    )
    static let allSessions = flag("all", help: "Save the same range from every running session, a clip from each.")
    static let clear = flag("clear", help: "Drop the buffer up to the end of the saved range, so the next save repeats nothing.")
    static let notify = flag("notify", help: "Send a desktop notification with the clip's path when the save is done.")
    static let noUpload = flag("no-upload", help: "Copy this clip nowhere, even when the session copies every clip off the box (its --upload).")
}
