/// The answer to `save`: what was asked for and what was written.
package struct SaveReport: Sendable, Equatable, Codable {
    /// The file written.
    package var path: String
    /// The range asked for, on the session's timeline.
    package var requested: ControlSpan?
    /// The range actually written (it can start earlier on a keyframe, or be shorter than the ring holds).
    package var saved: ControlSpan?
    /// `saved` exactly, on the session's timeline: from the first frame's time to the end of the
    /// last one, as the frames' own timestamps say (not sent over the control socket).
    package var exactSaved: Range<Timestamp>?
    /// `requested` exactly (not sent).
    package var exactRequested: Range<Timestamp>?
    /// Frames written.
    package var frames: Int?
    /// Frames missing inside the saved range (dropped late or by the driver).
    package var droppedInRange: Int?
    /// Seconds of the saved range in which the source was away (a network camera's outage, a USB
    /// camera unplugged and back): the clip holds no pictures there.
    package var missing: Double?
    /// Bytes written.
    package var bytes: Int?
    /// Time of the keyframe the clip is decoded from.
    package var keyframe: Double?
    /// Frames decoded before `requested.from` only to reach it (not shown).
    package var prerollFrames: Int?
    /// Where the packets came from: the ring, or the session's own file (older than the ring holds).
    package var source: Source?
    /// Frames re-encoded to make the cut exact (0 when every packet was copied).
    package var reencoded: Int?
    /// Frames copied after the range only because frames inside it refer to them, hidden after the end.
    package var trailingHidden: Int?
    /// How the range was cut.
    package var mode: Mode?
    /// Why the clip starts later than `requested` (nil when it starts where asked): the range
    /// began before the session did, or part of it was recorded but is no longer held anywhere.
    package var shortfall: Shortfall?

    /// Why a clip holds less than was asked for (`SaveShortfall.of`).
    package enum Shortfall: String, Sendable, Equatable, Codable {
        /// The range began before the session's first frame: nothing was recorded there.
        case beforeSession = "before_session"
        /// Part of the range was recorded but is older than the ring and every file: lost. `rec
        /// save` exits 1 (the clip is kept).
        case notHeld = "not_held"
    }

    /// Where a clip's packets came from.
    package enum Source: String, Sendable, Equatable, Codable {
        /// The ring of encoded packets in memory.
        case ring
        /// The session's recording (or its segments) on disk.
        case file
    }

    /// How a clip's range was cut (`CutPlan.Mode` on the wire).
    package enum Mode: String, Sendable, Equatable, Codable {
        /// Exactly the frames in the range.
        case exact
        /// From the keyframe at or before the range's start (`keyframe: true` in the request).
        case keyframe

        package init(_ mode: CutPlan.Mode) {
            switch mode {
            case .exact: self = .exact
            case .keyframe: self = .keyframe
            }
        }
    }

    package init(path: String, requested: ControlSpan? = nil, saved: ControlSpan? = nil, frames: Int? = nil,
                droppedInRange: Int? = nil, bytes: Int? = nil, keyframe: Double? = nil,
                prerollFrames: Int? = nil, source: Source? = nil, reencoded: Int? = nil,
                trailingHidden: Int? = nil, mode: Mode? = nil, missing: Double? = nil) {
        self.path = path
        self.missing = missing
        self.requested = requested
        self.saved = saved
        self.frames = frames
        self.droppedInRange = droppedInRange
        self.bytes = bytes
        self.keyframe = keyframe
        self.prerollFrames = prerollFrames
        self.source = source
        self.reencoded = reencoded
        self.trailingHidden = trailingHidden
        self.mode = mode
    }

    /// The JSON keys, all documented in docs/PROTOCOL.md (a test checks).
    private enum CodingKeys: String, CodingKey {
        case path, requested, saved, frames, droppedInRange = "dropped_in_range", bytes, keyframe
        case prerollFrames = "preroll_frames", source, reencoded, trailingHidden = "trailing_hidden", mode
        case missing = "missing_seconds", shortfall
    }
}

/// A range of the session's timeline in seconds (0 = first frame), end exclusive.
package struct ControlSpan: Sendable, Equatable, Codable {
    package var from: Double
    package var to: Double

    package init(from: Double, to: Double) {
        self.from = from
        self.to = to
    }
}
