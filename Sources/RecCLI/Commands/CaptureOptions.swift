import CaptureSetup
import RecClient
import RecCore

/// The capture and encoding choices `rec record` and `rec start` share, as given on the command
/// line. Kept as given; `RecordingSetup` parses and checks them.
typealias CaptureOptions = CaptureChoices

extension CaptureChoices {
    /// The arguments behind these options, in help order.
    static let arguments: [ArgumentSpec] = [
        .source, .preset, .size, .fps, .pixelFormat, .filter, .control, .duration, .audio, .onUnplug, .cursor,
    ]

    init(_ values: ParsedValues) throws(RecError) {
        self.init()
        source = try values.value(.source)
        preset = try values.value(.preset)
        size = try values.value(.size)
        fps = try values.value(.fps)
        filters = try values.values(.filter)
        controls = try values.values(.control)
        duration = try values.value(.duration)
        pixelFormat = try values.value(.pixelFormat)
        onUnplug = try values.value(.onUnplug)
        audio = try values.values(.audio)
        cursor = try values.value(.cursor)
    }
}

extension ArgumentSpec {
    static let pixelFormat = option("pixel-format", value: "format", help: "The pixel format to ask the camera for, such as YUYV or MJPG.")
    static let control = option(
        "control", value: "name=value", repeatable: true,
        help: "A camera control to set, such as exposure_time_absolute=250; repeat it for more (see 'rec devices')."
    )
    static let audio = option(
        "audio", value: "source", repeatable: true,
        help: "Sound to record with the pictures: none, default (the sound server's input), desktop (what the speakers play), pulse:NAME, alsa:DEVICE, source (the source's own: every sound track of a file, a network camera's sound; the default for network cameras) or test; repeat it to record more than one (see 'rec devices')."
    )
    static let cursor = option(
        "cursor", value: "on|off", choices: ["on", "off"],
        help: "Whether a screen recording shows the mouse pointer: on (the default) or off."
    )
    static let onUnplug = option(
        "on-unplug", value: "action", choices: ["stop", "wait"],
        help: "What to do when the camera goes away: stop, or wait for it to return (a USB camera up to a minute; a network camera is connected again for as long as the session runs, the default for network cameras)."
    )
}
