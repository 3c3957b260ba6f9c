import Capture
import Media
import RecClient
import RecCore

/// `rec devices`: list the cameras and the formats they offer, then the microphones `--audio`
/// can record from (the sound server's inputs, then ALSA's).
///
/// Finding no camera is a successful listing (exit 0): text mode prints "no cameras found" with
/// the hint to use `--source test`; `--json` prints an empty `cameras` array and the same hint on
/// stderr. A camera that exists but cannot be opened (no permission, busy) is an error (exit 1)
/// that says how to fix it. No sound server running is an answer too: one line in the text
/// (`--json`: on stderr, with an empty or ALSA-only `microphones` array).
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "devices",
        abstract: "List the cameras and the sizes, frame rates and pixel formats they offer, and the microphones."
    )
    static let arguments: [ArgumentSpec] = [.json]

    /// What `rec devices` prints when no capture device exists.
    static let noneFound = "no cameras found (no /dev/video* capture device); use --source test for the built-in stand-in camera"

    var json: Bool

    init(_ values: ParsedValues) throws(RecError) {
        json = values.flag(.json)
    }

    init(json: Bool) {
        self.json = json
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        FFmpegLog.quiet()
        return try list(context.console, system: LibV4L2System(), microphones: AudioDevices.list())
    }

    /// The listing through any V4L2 seam, with the microphones if they were listed (nil: the
    /// cameras alone); tests pass a fake driver and a made-up microphone listing.
    func list(_ console: Console, system: any VideoDeviceSystem, microphones: MicrophoneListing? = nil) throws(RecError) -> Int32 {
        let cameras: [CameraInfo]
        do {
            cameras = try V4L2Discovery.requireCameras(system: system)
        } catch where error.location == nil {
            // Nothing to list; an error naming a node (busy, no permission) is thrown on instead.
            cameras = []
        }
        if json {
            console.writeOutput(Self.json(cameras: cameras, microphones: microphones?.microphones ?? []))
            if cameras.isEmpty { console.printError(Self.noneFound) }
            for note in microphones?.notes ?? [] { console.printError(note) }
        } else {
            console.writeOutput(cameras.isEmpty ? Self.noneFound + "\n" : CameraListFormatter.text(cameras))
            if let microphones { console.writeOutput("\n" + MicrophoneListFormatter.text(microphones)) }
        }
        return 0
    }

    /// `{"cameras": [...], "microphones": [...]}`: each camera as `CameraListFormatter.json` gives
    /// it, each microphone as `MicrophoneListFormatter.json` does, indented one level.
    static func json(cameras: [CameraInfo], microphones: [Microphone]) -> String {
        func member(_ key: String, _ array: String) -> String {
            let lines = array.split(separator: "\n", omittingEmptySubsequences: false)
            let body = lines.joined(separator: "\n  ").trimmingSuffix("\n  ")
            return "  \"\(key)\" : \(body)"
        }
        let camerasArray = cameras.isEmpty ? "[]" : CameraListFormatter.json(cameras)
        let microphonesArray = microphones.isEmpty ? "[]" : MicrophoneListFormatter.json(microphones)
        return "{\n" + member("cameras", camerasArray) + ",\n" + member("microphones", microphonesArray) + "\n}\n"
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
