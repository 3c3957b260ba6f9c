/// The answer to `status`. Every field but `state` is optional: the session fills what it knows,
/// and clients ignore fields they do not know.
package struct StatusBody: Sendable, Equatable, Codable {
    package var state: SessionState
    package var session: String?
    /// The frame source, e.g. "/dev/video0" or "testsrc".
    package var source: String?
    /// How the session records, e.g. "ring" or "file+ring".
    package var mode: String?
    /// Seconds since the session started.
    package var uptime: Double?
    /// Frames captured so far.
    package var frames: Int?
    /// Measured frames per second.
    package var fps: Double?
    /// Frames dropped because the pipeline was late.
    package var droppedLate: Int?
    /// Frames the driver dropped (gaps in its sequence numbers).
    package var droppedByDriver: Int?
    /// Frames waiting for the encoder.
    package var encoderLagFrames: Int?
    /// Encoded bits per second, recent average.
    package var bitrate: Int?
    /// Seconds of video the ring holds.
    package var ringSpan: Double?
    /// Bytes the ring holds.
    package var ringBytes: Int?
    /// The file being recorded, if any.
    package var output: String?
    /// Its size so far, in bytes.
    package var outputBytes: Int?
    /// The last error the session met and survived.
    package var lastError: String?
    /// Anything else, as text, for fields not (yet) named here.
    package var extra: [String: String]?
    /// The sound, when the session records any: its first input (`.sound(0)`).
    package var audio: StatusSound?
    /// Every sound input in stream order, when the session records more than one.
    package var audioTracks: [StatusSound]?
    /// How the wait ended, when the request waited (`StatusRequest.wait`).
    package var wait: StatusWaitOutcome?

    /// Each sound input: `audioTracks`, or `audio` alone.
    package var sounds: [StatusSound] { audioTracks ?? audio.map { [$0] } ?? [] }

    package init(state: SessionState, session: String? = nil, source: String? = nil, mode: String? = nil,
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
        case output, outputBytes = "output_bytes", lastError = "last_error", extra, audio, audioTracks = "audio_tracks", wait
    }

    /// Times (`uptime`, `ring_span`) and `fps` go out rounded to the millisecond (3 decimals), so
    /// JSON shows 60.7 rather than the binary float 60.699999999999996.
    package func encode(to encoder: any Encoder) throws {
        func milli(_ value: Double?) -> Double? { value.map { $0.isFinite ? ($0 * 1000).rounded() / 1000 : $0 } }
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(state, forKey: .state)
        try c.encodeIfPresent(session, forKey: .session)
        try c.encodeIfPresent(source, forKey: .source)
        try c.encodeIfPresent(mode, forKey: .mode)
        try c.encodeIfPresent(milli(uptime), forKey: .uptime)
        try c.encodeIfPresent(frames, forKey: .frames)
        try c.encodeIfPresent(milli(fps), forKey: .fps)
        try c.encodeIfPresent(droppedLate, forKey: .droppedLate)
        try c.encodeIfPresent(droppedByDriver, forKey: .droppedByDriver)
        try c.encodeIfPresent(encoderLagFrames, forKey: .encoderLagFrames)
        try c.encodeIfPresent(bitrate, forKey: .bitrate)
        try c.encodeIfPresent(milli(ringSpan), forKey: .ringSpan)
        try c.encodeIfPresent(ringBytes, forKey: .ringBytes)
        try c.encodeIfPresent(output, forKey: .output)
        try c.encodeIfPresent(outputBytes, forKey: .outputBytes)
        try c.encodeIfPresent(lastError, forKey: .lastError)
        try c.encodeIfPresent(extra, forKey: .extra)
        try c.encodeIfPresent(audio, forKey: .audio)
        try c.encodeIfPresent(audioTracks, forKey: .audioTracks)
        try c.encodeIfPresent(wait, forKey: .wait)
    }
}

/// A session's state, as text on the wire; states this build does not know still decode.
package struct SessionState: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    package var rawValue: String

    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    package static let starting = SessionState(rawValue: "starting")
    package static let recording = SessionState(rawValue: "recording")
    package static let stopping = SessionState(rawValue: "stopping")
    package static let failed = SessionState(rawValue: "failed")

    package var description: String { rawValue }
}
