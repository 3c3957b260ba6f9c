/// What a ring holds right now, for `rec status` and save reports.
package struct RingStats: Sendable, Equatable {
    /// Presentation time of the first (key)frame held, nil when empty.
    package var start: Timestamp?
    /// End (pts + duration) of the latest-presented frame held, nil when empty.
    package var end: Timestamp?
    /// The earliest start of a range the ring serves whole (`RingState.servesFrom`): at or
    /// before `start`, after the last picture let go. Nil when empty.
    package var servesFrom: Timestamp?
    package var bytes: Int
    package var packets: Int
    package var keyframes: Int
    /// Packets dropped by the caps (or because they came before the first keyframe).
    package var evictedPackets: Int
    /// Packets dropped by `clear(upTo:)`.
    package var clearedPackets: Int
    /// Sound packets held (0 without sound), and the end of the newest.
    package var soundPackets: Int = 0
    /// The end of the newest sound packet of the sound stream furthest behind: every sound
    /// stream is held up to here.
    package var soundEnd: Timestamp?
    /// The streams that have packets held.
    package var streams: [StreamID] = []
    /// Presentation time of the latest-presented frame held (its start), nil when empty.
    package var newest: Timestamp?

    /// `end - start` in microseconds; zero when empty.
    package var span: Timestamp {
        guard let start, let end else { return .zero }
        return .microseconds(end.rescaled(to: .microseconds).value - start.rescaled(to: .microseconds).value)
    }
}
