import Capture
import RecClient
import RecCore

/// `rec devices`: list the cameras and the formats they offer.
///
/// Finding no camera is a successful listing (exit 0): text mode prints "no cameras found" with
/// the hint to use `--source test`; `--json` prints `[]` and the same hint on stderr. A camera that
/// exists but cannot be opened (no permission, busy) is an error (exit 1) that says how to fix it.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "devices",
        abstract: "List the cameras and the sizes, frame rates and pixel formats they offer."
    )
    static let arguments: [ArgumentSpec] = [.json]

    /// What `rec devices` prints when no capture device exists.
    static let noneFound = "no cameras found (no /dev/video* capture device); use --source test for the built-in stand-in camera"

    var json: Bool

    init(_ values: ParsedValues) throws(RecError) {
        json = values.flag("json")
    }

    init(json: Bool) {
        self.json = json
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        try list(context.console, system: LibV4L2System())
    }

    /// The listing through any V4L2 seam; tests pass a fake driver.
    func list(_ console: Console, system: any VideoDeviceSystem) throws(RecError) -> Int32 {
        let cameras: [CameraInfo]
        do {
            cameras = try V4L2Discovery.requireCameras(system: system)
        } catch where error.location == nil {
            // Nothing to list; an error naming a node (busy, no permission) is thrown on instead.
            cameras = []
        }
        if json {
            console.writeOutput(cameras.isEmpty ? "[]\n" : CameraListFormatter.json(cameras))
            if cameras.isEmpty { console.printError(Self.noneFound) }
        } else {
            console.writeOutput(cameras.isEmpty ? Self.noneFound + "\n" : CameraListFormatter.text(cameras))
        }
        return 0
    }
}
