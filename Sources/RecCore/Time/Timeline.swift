/// What a recording or file holds, and how it maps to "now" and the wall clock: the context in
/// which a `TimeSelection` becomes a concrete range. Times are on the timeline whose 0 is the
/// start of the session or file.
package struct Timeline: Sendable, Equatable {
    /// The earliest time held (the first frame still in the ring, or the file's first frame).
    package var availableStart: Timestamp
    /// The end of the newest frame held.
    package var availableEnd: Timestamp
    /// Where "now" falls on the timeline in a live session; nil for files.
    package var now: Timestamp?
    /// The wall-clock time (microseconds since the Unix epoch) of timeline 0, if known.
    package var wallClockAtZero: Timestamp?

    package init(availableStart: Timestamp, availableEnd: Timestamp, now: Timestamp? = nil,
                wallClockAtZero: Timestamp? = nil) {
        self.availableStart = availableStart
        self.availableEnd = availableEnd
        self.now = now
        self.wallClockAtZero = wallClockAtZero
    }
}
