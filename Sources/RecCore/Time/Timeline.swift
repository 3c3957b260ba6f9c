/// What a recording or file holds, and how it maps to "now" and the wall clock: the context in
/// which a `TimeSelection` becomes a concrete range. Times are on the timeline whose 0 is the
/// start of the session or file.
public struct Timeline: Sendable, Equatable {
    /// The earliest time held (the first frame still in the ring, or the file's first frame).
    public var availableStart: Timestamp
    /// The end of the newest frame held.
    public var availableEnd: Timestamp
    /// Where "now" falls on the timeline in a live session; nil for files.
    public var now: Timestamp?
    /// The wall-clock time (microseconds since the Unix epoch) of timeline 0, if known.
    public var wallClockAtZero: Timestamp?

    public init(availableStart: Timestamp, availableEnd: Timestamp, now: Timestamp? = nil,
                wallClockAtZero: Timestamp? = nil) {
        self.availableStart = availableStart
        self.availableEnd = availableEnd
        self.now = now
        self.wallClockAtZero = wallClockAtZero
    }
}
