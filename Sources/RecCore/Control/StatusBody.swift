/// The answer to `status`. Every field but `state` is optional: the session fills what it knows,
/// and clients ignore fields they do not know.
public struct StatusBody: Sendable, Equatable, Codable {
    public var state: SessionState
    public var session: String?
    /// The frame source, e.g. "/dev/video0" or "testsrc".
    public var source: String?
    /// How the session records, e.g. "ring" or "file+ring".
    public var mode: String?
    /// Seconds since the session started.
    public var uptime: Double?
    /// Frames captured so far.
    public var frames: Int?
    /// Measured frames per second.
    public var fps: Double?
    /// Frames dropped because the pipeline was late.
    public var droppedLate: Int?
    /// Frames the driver dropped (gaps in its sequence numbers).
    public var droppedByDriver: Int?
    /// Frames waiting for the encoder.
    public var encoderLagFrames: Int?
    /// Encoded bits per second, recent average.
    public var bitrate: Int?
    /// Seconds of video the ring holds.
    public var ringSpan: Double?
    /// Bytes the ring holds.
    public var ringBytes: Int?
    /// The file being recorded, if any.
    public var output: String?
    /// Its size so far, in bytes.
    public var outputBytes: Int?
    /// The last error the session met and survived.
    public var lastError: String?
    /// Anything else, as text, for fields not (yet) named here.
    public var extra: [String: String]?

    public init(state: SessionState, session: String? = nil, source: String? = nil, mode: String? = nil,
                uptime: Double? = nil, frames: Int? = nil, fps: Double? = nil, droppedLate: Int? = nil,
                droppedByDriver: Int? = nil, encoderLagFrames: Int? = nil, bitrate: Int? = nil,
                ringSpan: Double? = nil, ringBytes: Int? = nil, output: String? = nil, outputBytes: Int? = nil,
                lastError: String? = nil, extra: [String: String]? = nil) {
        self.state = state
        self.session = session
        self.source = source
        self.mode = mode
        self.uptime = uptime
        self.frames = frames
        self.fps = fps
        self.droppedLate = droppedLate
        self.droppedByDriver = droppedByDriver
        self.encoderLagFrames = encoderLagFrames
        self.bitrate = bitrate
        self.ringSpan = ringSpan
        self.ringBytes = ringBytes
        self.output = output
        self.outputBytes = outputBytes
        self.lastError = lastError
        self.extra = extra
    }

    private enum CodingKeys: String, CodingKey {
        case state, session, source, mode, uptime, frames, fps
        case droppedLate = "dropped_late", droppedByDriver = "dropped_by_driver"
        case encoderLagFrames = "encoder_lag_frames", bitrate
        case ringSpan = "ring_span", ringBytes = "ring_bytes"
        case output, outputBytes = "output_bytes", lastError = "last_error", extra
    }
}

/// A session's state, as text on the wire; states this build does not know still decode.
public struct SessionState: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public static let starting = SessionState(rawValue: "starting")
    public static let recording = SessionState(rawValue: "recording")
    public static let stopping = SessionState(rawValue: "stopping")
    public static let failed = SessionState(rawValue: "failed")

    public var description: String { rawValue }
}
