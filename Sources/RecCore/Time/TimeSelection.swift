/// The `--from`/`--to` pair (or `--last`) of a command, resolved against a `Timeline` into a
/// half-open range `[from, to)` in microseconds.
///
/// Missing ends default to what is available. Ends given as `now` or `+20s`, and wall-clock
/// ends in a live session, may lie after the newest frame (the session waits for them); every
/// other end must be available.
package struct TimeSelection: Sendable, Equatable {
    package var from: TimeSpec?
    package var to: TimeSpec?
    /// `--last` moves a start before the oldest frame up to it instead of failing.
    package var clampsStart: Bool
    /// Offsets from the start (`30s`) may also lie after the newest frame of a live session, to
    /// be waited for: the Swift API's `save(from:to:to:)`, whose caller awaits the answer.
    package var offsetsMayBeFuture = false

    package init(from: TimeSpec? = nil, to: TimeSpec? = nil) {
        self.from = from
        self.to = to
        self.clampsStart = false
    }

    /// `--last 30s`: the 30 seconds up to the newest frame (or less, if less is held).
    package static func last(_ duration: Timestamp) -> TimeSelection {
        var selection = TimeSelection(from: .fromEnd(duration), to: nil)
        selection.clampsStart = true
        return selection
    }

    /// The concrete range, or a `.usage` error saying what is available.
    package func resolve(on timeline: Timeline) throws(RecError) -> Range<Timestamp> {
        let start = timeline.availableStart.rescaled(to: .microseconds)
        let end = timeline.availableEnd.rescaled(to: .microseconds)
        var lower = try from.map { spec throws(RecError) in try Self.place(spec, on: timeline) } ?? start
        let upper = try to.map { spec throws(RecError) in try Self.place(spec, on: timeline) } ?? end
        if clampsStart && lower < start { lower = start }
        let lowerMayBeFuture = from.map { mayBeFuture($0, on: timeline) } ?? false
        // A start past everything held is out of range, whatever the end: say what is held.
        if lower >= end && !lowerMayBeFuture && to == nil {
            throw .unavailableRange(from: lower, to: max(lower, upper), holder: "the recording",
                                    availableFrom: timeline.availableStart, availableTo: timeline.availableEnd)
        }
        guard lower < upper else {
            throw .reversedRange(from: lower, to: upper)
        }
        let upperMayBeFuture = to.map { mayBeFuture($0, on: timeline) } ?? false
        guard lower >= start, upper <= end || upperMayBeFuture, lower < end || lowerMayBeFuture else {
            throw .unavailableRange(from: lower, to: upper, holder: "the recording",
                                    availableFrom: timeline.availableStart, availableTo: timeline.availableEnd)
        }
        return lower..<upper
    }

    /// Where the range asked for starts, before `resolve` moves a `--last` start up to what is
    /// held: what a save reports as requested. nil when no start was given.
    package func askedStart(on timeline: Timeline) -> Timestamp? {
        guard let from else { return nil }
        return try? Self.place(from, on: timeline)
    }

    /// Whether an end may lie after the newest frame, for the session to wait for: `now` and
    /// `+20s`, and in a live session a wall-clock time (a save from several sessions sends each
    /// the same instants, which may be a frame ahead of what one of them holds yet), and
    /// offsets when `offsetsMayBeFuture` says so.
    private func mayBeFuture(_ spec: TimeSpec, on timeline: Timeline) -> Bool {
        switch spec {
        case .now, .fromNow: true
        case .wallClock: timeline.now != nil
        case .offset: offsetsMayBeFuture && timeline.now != nil
        case .fromEnd: false
        }
    }

    /// One end on the timeline, in microseconds.
    private static func place(_ spec: TimeSpec, on timeline: Timeline) throws(RecError) -> Timestamp {
        func us(_ t: Timestamp) -> Int64 { t.rescaled(to: .microseconds).value }
        switch spec {
        case .offset(let t):
            return .microseconds(us(t))
        case .fromEnd(let d):
            return .microseconds(us(timeline.availableEnd).subtractingSaturated(us(d)))
        case .now, .fromNow:
            guard let now = timeline.now else {
                throw .usage("'now' and '+' times only apply to a running session; "
                    + "give times from the start such as 12s or 1:30")
            }
            if case .fromNow(let d) = spec {
                return .microseconds(us(now).addingSaturated(us(d)))
            }
            return .microseconds(us(now))
        case .wallClock(let wall):
            guard let zero = timeline.wallClockAtZero else {
                throw .usage("this recording has no wall-clock start time; "
                    + "give times from the start such as 12s or 1:30")
            }
            return .microseconds(us(wall).subtractingSaturated(us(zero)))
        }
    }
}

extension Int64 {
    /// `self + other`, clamped to `Int64.min...Int64.max` instead of trapping.
    func addingSaturated(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self - other`, clamped to `Int64.min...Int64.max` instead of trapping.
    func subtractingSaturated(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }
}
