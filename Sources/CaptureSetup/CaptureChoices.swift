/// The capture and encoding choices of a recording, as a person gives them: `rec record` and
/// `rec start` parse them from the command line, `CaptureSession.Configuration` from its fields.
/// Kept as given; `RecordingSetup` parses and checks them, with the same messages for both.
package struct CaptureChoices: Sendable, Equatable {
    package var source: String?
    package var preset: String?
    package var size: String?
    package var fps: Double?
    package var filters: [String] = []
    package var controls: [String] = []
    package var duration: String?
    package var pixelFormat: String?
    /// nil when not given: stop for a USB camera, connect again for a network camera.
    package var onUnplug: String?
    package var audio: [String] = []
    /// `on` or `off`, for screen sources; nil when not given (on).
    package var cursor: String?

    package init() {}
}
