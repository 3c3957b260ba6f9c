/// How much a `RingState` holds: whichever cap bites first. The ring never drops below two
/// keyframes (two GOPs), so a stream with very long GOPs may exceed both.
package struct RingLimits: Sendable, Equatable {
    /// The longest span held, measured on presentation times (first keyframe to newest frame's end).
    package var maxDuration: Timestamp
    /// The most packet bytes held.
    package var maxBytes: Int

    package init(maxDuration: Timestamp, maxBytes: Int) {
        self.maxDuration = maxDuration
        self.maxBytes = maxBytes
    }

    /// The smallest byte cap a session accepts: below it the two-keyframe floor, not the cap,
    /// decides what the ring holds, and the user's number would mean nothing.
    package static let smallestBytes = 1 << 20

    /// Five minutes or 1 GiB.
    package static let replay = RingLimits(maxDuration: .microseconds(300_000_000), maxBytes: 1 << 30)
}
