/// The answer to `save`: what was asked for and what was written.
public struct SaveReport: Sendable, Equatable, Codable {
    /// The file written.
    public var path: String
    /// The range asked for, on the session's timeline.
    public var requested: ControlSpan?
    /// The range actually written (it can start earlier on a keyframe, or be shorter than the ring holds).
    public var saved: ControlSpan?
    /// Frames written.
    public var frames: Int?
    /// Frames missing inside the saved range (dropped late or by the driver).
    public var droppedInRange: Int?
    /// Bytes written.
    public var bytes: Int?
    /// Time of the keyframe the clip is decoded from.
    public var keyframe: Double?
    /// Frames decoded before `requested.from` only to reach it (not shown).
    public var prerollFrames: Int?
    /// Anything else, as text.
    public var extra: [String: String]?

    public init(path: String, requested: ControlSpan? = nil, saved: ControlSpan? = nil, frames: Int? = nil,
                droppedInRange: Int? = nil, bytes: Int? = nil, keyframe: Double? = nil,
                prerollFrames: Int? = nil, extra: [String: String]? = nil) {
        self.path = path
        self.requested = requested
        self.saved = saved
        self.frames = frames
        self.droppedInRange = droppedInRange
        self.bytes = bytes
        self.keyframe = keyframe
        self.prerollFrames = prerollFrames
        self.extra = extra
    }

    private enum CodingKeys: String, CodingKey {
        case path, requested, saved, frames, droppedInRange = "dropped_in_range", bytes, keyframe
        case prerollFrames = "preroll_frames", extra
    }
}

/// A range of the session's timeline in seconds (0 = first frame), end exclusive.
public struct ControlSpan: Sendable, Equatable, Codable {
    public var from: Double
    public var to: Double

    public init(from: Double, to: Double) {
        self.from = from
        self.to = to
    }
}
