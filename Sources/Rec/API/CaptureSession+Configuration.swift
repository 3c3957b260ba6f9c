import CaptureSetup
import RecCore

extension CaptureSession {
    /// Where frames come from: the same sources as `rec record --source`.
    ///
    /// Credentials in a network camera's URL are kept for the connection only: ``description``
    /// and every message hide them.
    public struct Source: Sendable, Equatable, CustomStringConvertible {
        /// The source in `rec`'s `--source` syntax.
        let text: String

        /// A source in `rec`'s `--source` syntax: `test`, `test:1280x720@30`, `/dev/video0`,
        /// `file:PATH`, `rtsp://…`, `screen`, `x11:+0,0/1280x720`, … (see `rec record --help`).
        public init(_ text: String) { self.text = text }

        /// The built-in stand-in camera: a moving test picture with a frame counter, 1280x720 at 30 fps.
        public static let testPattern = Source("test")
        /// The stand-in camera at a size and rate of your choice.
        public static func testPattern(width: Int, height: Int, fps: Int) -> Source { Source("test:\(width)x\(height)@\(fps)") }
        /// A V4L2 camera, such as `/dev/video0` or a `/dev/v4l/by-id/…` path.
        public static func camera(_ path: String) -> Source { Source(path) }
        /// Any video file FFmpeg reads, delivered as if it were a camera.
        public static func file(_ path: String) -> Source { Source("file:\(path)") }
        /// A network camera or stream: `rtsp://`, `rtsps://`, `rtmp://`, `srt://`, `http(s)://`.
        public static func network(_ url: String) -> Source { Source(url) }
        /// The desktop's screen: X11, or Wayland through the ScreenCast portal.
        public static let screen = Source("screen")

        /// The source as messages name it, without credentials.
        public var description: String {
            (try? SourceSpec.parse(text).description) ?? "an unreadable source"
        }
    }

    /// Sound recorded with the pictures, each input a track of its own.
    public struct Sound: Sendable, Equatable, CustomStringConvertible {
        let text: String

        /// An input in `rec`'s `--audio` syntax: `default`, `desktop`, `pulse:NAME`, `alsa:DEVICE`, `source`, `test`.
        public init(_ text: String) { self.text = text }
        /// The sound server's default input (PulseAudio or PipeWire).
        public static let microphone = Sound("default")
        /// What the speakers play (the default output's monitor).
        public static let desktop = Sound("desktop")
        /// A file's or network camera's own sound.
        public static let source = Sound("source")
        /// A stand-in tone, with no sound card.
        public static let testTone = Sound("test")

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
        /// A preset by name (`rec presets`): `default`, `quality`, `small`, `camera-copy`, … nil picks
        /// `default`, or `camera-copy` for a network camera (its own H.264 or H.265, not re-encoded).
        public var preset: String?
        /// The picture size to ask the source for (a camera's mode, a test pattern's size).
        public var size: (width: Int, height: Int)?
        /// Frames per second to ask the source for.
        public var frameRate: Double?
        /// The pixel format to ask a camera for, as a V4L2 four-character code such as `YUYV` or
        /// `MJPG` (the `camera-copy` preset stores a USB camera's MJPEG as it comes).
        public var pixelFormat: String?
        /// FFmpeg filters applied before encoding, in order, such as `hflip` or `eq=contrast=1.2`.
        public var filters: [String] = []
        /// Sound inputs, each recorded as a track of its own; none by default (a network camera
        /// keeps its own sound unless this is `[]` and ``keepsSourceSound`` is false).
        public var sounds: [Sound] = []
        /// Whether a network camera's own sound is recorded; true by default.
        public var keepsSourceSound = true
        /// Stop by itself after this long.
        public var duration: Duration?
        /// How a test pattern or file delivers its frames.
        public var pace: Pace = .realTime
        /// A file to record the whole session into; its extension picks the container. nil
        /// records into the replay buffer only.
        public var recordingPath: String?
        /// Replace ``recordingPath`` if it exists.
        public var overwrites = false
        /// How much the replay buffer keeps.
        public var replayBuffer = ReplayBuffer.Limits()

        /// A configuration for `source` with `preset` (nil: the source's default).
        public init(source: Source = .testPattern, preset: String? = nil) {
            self.source = source
            self.preset = preset
        }

        /// The command line's options for the same recording.
        var choices: CaptureChoices {
            var c = CaptureChoices()
            c.source = source.text
            c.preset = preset
            c.size = size.map { "\($0.width)x\($0.height)" }
            c.fps = frameRate
            c.pixelFormat = pixelFormat
            c.filters = filters
            c.audio = sounds.map(\.text) + (keepsSourceSound || !sounds.isEmpty ? [] : ["none"])
            c.duration = duration.map { "\(Timestamp($0).seconds)s" }
            return c
        }
    }
}
