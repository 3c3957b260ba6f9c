/// What a ring holds right now, for `rec status` and save reports.
public struct RingStats: Sendable, Equatable {
    /// Presentation time of the first (key)frame held, nil when empty.
    public var start: Timestamp?
    /// End (pts + duration) of the latest-presented frame held, nil when empty.
    public var end: Timestamp?
    public var bytes: Int
    public var packets: Int
    public var keyframes: Int
    /// Packets dropped by the caps (or because they came before the first keyframe).
    public var evictedPackets: Int
    /// Packets dropped by `clear(upTo:)`.
    public var clearedPackets: Int
    /// Sound packets held (0 without sound), and the end of the newest.
    public var soundPackets: Int = 0
    /// The end of the newest sound packet of the sound stream furthest behind: every sound
    /// stream is held up to here.
    public var soundEnd: Timestamp?
    /// The streams that have packets held.
    public var streams: [StreamID] = []

    /// `end - start` in microseconds; zero when empty.
    public var span: Timestamp {
        guard let start, let end else { return .zero }
        return .microseconds(end.rescaled(to: .microseconds).value - start.rescaled(to: .microseconds).value)
    }
}
