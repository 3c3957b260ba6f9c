import Capture
import Media
import RecClient
import RecCore

/// `rec devices`: list the cameras and the formats they offer, then the microphones `--audio`
/// can record from (the sound server's inputs, then ALSA's), then the screens `--source` can
/// record (`$DISPLAY`'s X11 screens and RandR outputs; a note on Wayland).
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
        return try list(context.console, system: LibV4L2System(), microphones: AudioDevices.list(), screens: ScreenDevices.list())
    }

    /// The listing through any V4L2 seam, with the microphones if they were listed (nil: the
    /// cameras alone); tests pass a fake driver and a made-up microphone listing.
    func list(_ console: Console, system: any VideoDeviceSystem, microphones: MicrophoneListing? = nil,
              screens: ScreenListing? = nil) throws(RecError) -> Int32 {
        let cameras: [CameraInfo]
        do {
            cameras = try V4L2Discovery.requireCameras(system: system)
        } catch where error.location == nil {
            // Nothing to list; an error naming a node (busy, no permission) is thrown on instead.
            cameras = []
        }
        if json {
            console.writeOutput(Self.json(cameras: cameras, microphones: microphones?.microphones ?? [], screens: screens?.screens))
            if cameras.isEmpty { console.printError(Self.noneFound) }
            for note in (microphones?.notes ?? []) + (screens?.notes ?? []) { console.printError(note) }
        } else {
            console.writeOutput(cameras.isEmpty ? Self.noneFound + "\n" : CameraListFormatter.text(cameras))
            if let microphones { console.writeOutput("\n" + MicrophoneListFormatter.text(microphones)) }
            if let screens { console.writeOutput("\n" + ScreenListFormatter.text(screens)) }
        }
        return 0
    }

    /// `{"cameras": [...], "microphones": [...], "screens": [...]}`: each camera as
    /// `CameraListFormatter.json` gives it, each microphone as `MicrophoneListFormatter.json`
    /// does, each screen as `ScreenListFormatter.json`, indented one level.
    static func json(cameras: [CameraInfo], microphones: [Microphone], screens: [ScreenInfo]? = nil) -> String {
        func member(_ key: String, _ array: String) -> String {
            let lines = array.split(separator: "\n", omittingEmptySubsequences: false)
            let body = lines.joined(separator: "\n  ").trimmingSuffix("\n  ")
            return "  \"\(key)\" : \(body)"
        }
        let camerasArray = cameras.isEmpty ? "[]" : CameraListFormatter.json(cameras)
        let microphonesArray = microphones.isEmpty ? "[]" : MicrophoneListFormatter.json(microphones)
        let screensMember = screens.map { ",\n" + member("screens", $0.isEmpty ? "[]" : ScreenListFormatter.json($0)) } ?? ""
        return "{\n" + member("cameras", camerasArray) + ",\n" + member("microphones", microphonesArray) + screensMember + "\n}\n"
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
