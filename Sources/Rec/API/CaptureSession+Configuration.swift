import CaptureSetup
import Foundation
import RecCore

extension CaptureSession {
    /// Where frames come from: the same sources as `rec record --source`.
    ///
    /// Credentials in a network camera's URL are kept for the connection only: ``description``
    /// and every message hide them.
    public struct Source: Sendable, Equatable, CustomStringConvertible {
        /// The source in `rec`'s `--source` syntax.
        let text: String

        init(checked text: String) { self.text = text }

        /// A source in `rec`'s `--source` syntax (`test:1280x720@30`, `/dev/video0`,
        /// `file:PATH`, `rtsp://…`, `x11:+0,0/1280x720`, `pipewire:NODE`, …), as a
        /// configuration file or a user would write it.
        ///
        /// - Throws: ``RecError/Kind/invalidRequest`` for text that is not a source.
        public init(parsing text: String) throws(RecError) {
            _ = try publicErrors { () throws(RecCore.RecError) in try SourceSpec.parse(text) }
            self.text = text
        }

        /// The built-in stand-in camera: a moving test picture with the frame number drawn in
        /// it, 1280x720 at 30 fps (see <doc:GettingStarted>, "The stand-in camera").
        public static let testPattern = Source(checked: "test")
        /// The stand-in camera at a size and rate of your choice (sizes from 16x16, 1 to 1000 fps).
        public static func testPattern(width: Int, height: Int, fps: Int) -> Source {
            Source(checked: "test:\(max(16, width))x\(max(16, height))@\(min(1000, max(1, fps)))")
        }
        /// A V4L2 camera by its device file, such as `/dev/video0` or a `/dev/v4l/by-id/…` path.
        public static func camera(_ device: URL) -> Source { Source(checked: "v4l2:" + device.path) }
        /// Any video file FFmpeg reads, delivered as if it were a camera.
        public static func file(_ url: URL) -> Source { Source(checked: "file:" + url.path) }
        /// A network camera or stream: `rtsp://`, `rtsps://`, `rtmp://`, `srt://`, `http(s)://`.
        ///
        /// - Throws: ``RecError/Kind/invalidRequest`` for a URL of another scheme.
        public static func network(_ url: URL) throws(RecError) -> Source { try Source(parsing: url.absoluteString) }
        /// The desktop's screen: X11, or Wayland through the ScreenCast portal.
        public static let screen = Source(checked: "screen")

        /// The source as messages name it, without credentials.
        public var description: String {
            (try? SourceSpec.parse(text).description) ?? "an unreadable source"
        }
    }

    /// Sound recorded with the pictures, each input a track of its own.
    public struct Sound: Sendable, Equatable, CustomStringConvertible {
        let text: String

        init(checked text: String) { self.text = text }

        /// An input in `rec`'s `--audio` syntax: `default`, `desktop`, `pulse:NAME`, `alsa:DEVICE`, `source`, `test`.
        ///
        /// - Throws: ``RecError/Kind/invalidRequest`` for text that is not a sound input.
        public init(parsing text: String) throws(RecError) {
            _ = try publicErrors { () throws(RecCore.RecError) in try AudioSpec.parse(text) }
            self.text = text
        }
        /// The sound server's default input (PulseAudio or PipeWire).
        public static let microphone = Sound(checked: "default")
        /// What the speakers play (the default output's monitor).
        public static let desktop = Sound(checked: "desktop")
        /// A file's or network camera's own sound.
        public static let source = Sound(checked: "source")
        /// A stand-in tone, with no sound card.
        public static let testTone = Sound(checked: "test")
        /// A sound server input by name (`Devices.microphones()` lists them).
        public static func pulse(_ name: String) -> Sound { Sound(checked: "pulse:" + name) }
        /// An ALSA device, such as `hw:1,0`, without the sound server.
        public static func alsa(_ device: String) -> Sound { Sound(checked: "alsa:" + (device.isEmpty ? "default" : device)) }

        public var description: String { text }
    }

    /// How a test pattern or file delivers its frames.
    public enum Pace: Sendable, Equatable {
        /// At their frame rate, as a camera would.
        case realTime
        /// As fast as the encoder takes them: for files and tests.
        case fastest
    }

    /// What a session records and how, decided before it starts.
    ///
    /// The fields mirror `rec record`'s options and are checked the same way: ``CaptureSession/init(_:)``
    /// throws the message the command line would print for a wrong one.
    public struct Configuration: Sendable {
        /// Where frames come from.
        public var source: Source
        /// The codec and its settings; nil picks ``Preset/default``, or ``Preset/cameraCopy``
        /// for a network camera (its own H.264 or H.265, not re-encoded).
        public var preset: Preset?
        /// The picture size to ask the source for (a camera's mode, a test pattern's size).
        public var size: (width: Int, height: Int)?
        /// Frames per second to ask the source for.
        public var frameRate: Double?
        /// The pixel format to ask a V4L2 camera for, such as ``CameraPixelFormat/yuyv`` or
        /// ``CameraPixelFormat/mjpeg`` (``Preset/cameraCopy`` stores a USB camera's MJPEG as it comes).
        public var cameraFormat: CameraPixelFormat?
        /// Filters applied before encoding, in order.
        public var filters: [Filter] = []
        /// Sound inputs, each recorded as a track of its own; none by default (a network camera
        /// keeps its own sound unless this is `[]` and ``keepsSourceSound`` is false).
        public var sounds: [Sound] = []
        /// Whether a network camera's own sound is recorded; true by default.
        public var keepsSourceSound = true
        /// Stop by itself after this long.
        public var duration: Duration?
        /// How a test pattern or file delivers its frames.
        public var pace: Pace = .realTime
        /// A file to record the whole session into; its extension picks the container (`.mp4`,
        /// `.mkv`, …). nil records into the replay buffer only.
        public var recordingURL: URL?
        /// Replace ``recordingURL`` if it exists.
        public var overwrites = false
        /// How much the replay buffer keeps.
        public var replayBuffer = ReplayBuffer.Limits()

        /// A configuration for `source` with `preset` (nil: the source's default).
        public init(source: Source = .testPattern, preset: Preset? = nil) {
            self.source = source
            self.preset = preset
        }

        /// The command line's options for the same recording.
        var choices: CaptureChoices {
            var c = CaptureChoices()
            c.source = source.text
            c.preset = preset?.argument
            c.size = size.map { "\($0.width)x\($0.height)" }
            c.fps = frameRate
            c.pixelFormat = cameraFormat?.rawValue
            c.filters = filters.map(\.description)
            c.audio = sounds.map(\.text) + (keepsSourceSound || !sounds.isEmpty ? [] : ["none"])
            c.duration = duration.map { "\(Timestamp($0).seconds)s" }
            return c
        }
    }
}
