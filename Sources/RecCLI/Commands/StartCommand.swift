import RecCore

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
        .option("buffer", value: "time", default: "30s", help: "How much recent video to keep in memory."),
        .option("buffer-size", value: "bytes", help: "The most memory the buffer may use, such as 256M."),
        .option("output", value: "file", help: "The file that also receives the whole recording."),
        .flag("no-file", help: "Keep frames only in the buffer and write no recording file."),
        .flag("foreground", help: "Run the session in this process instead of in the background."),
        .option("start-timeout", value: "time", default: "10s", help: "How long to wait for the session to start."),
        .option("on-save", value: "command", help: "A command to run after each save, given the clip's path."),
        .force, .json,
    ]

    var session: String
    var capture: CaptureOptions
    var buffer: String
    var bufferSize: String?
    var output: String?
    var noFile: Bool
    var foreground: Bool
    var startTimeout: String
    var onSave: String?
    var force: Bool
    var json: Bool

    init(_ values: ParsedValues) throws(RecError) {
        session = try values.require("session")
        capture = try CaptureOptions(values)
        buffer = try values.require("buffer")
        bufferSize = try values.value("buffer-size")
        output = try values.value("output")
        noFile = values.flag("no-file")
        foreground = values.flag("foreground")
        startTimeout = try values.require("start-timeout")
        onSave = try values.value("on-save")
        force = values.flag("force")
        json = values.flag("json")
    }

    func validate() throws(RecError) {
        if noFile, output != nil {
            throw .usage("--no-file and --output contradict each other; give only one")
        }
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        throw .notImplemented("start")
    }
}
