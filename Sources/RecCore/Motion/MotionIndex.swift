/// A session's motion index (issue 40), kept beside its ring: the level of motion every
/// `step` seconds and the events. Pure and bounded: the session forgets what is older than it
/// keeps, and the index file beside each recording (`MotionIndexLine`) holds the rest.
package struct MotionIndex: Sendable {
    /// One level every 200 ms of session time.
    package static let step = 0.2
    /// Levels kept: a day of them (two bytes each, 864 KB).
    package static let maximumSteps = 432_000
    package static let maximumEvents = 10_000
    private static let unknown = UInt16.max

    /// The step of `levels[0]`.
    private var firstStep = 0
    /// Each step's highest level in thousandths, or `unknown` where nothing was analysed.
    private var levels: [UInt16] = []
    /// Events by start, the one under way last.
    package private(set) var events: [MotionEvent] = []

    package init() {}

    /// The level of the picture analysed at `seconds`; a step keeps its highest.
    package mutating func record(level: Double, at seconds: Double) {
        let index = Self.stepIndex(seconds)
        let value = UInt16(min(1000, max(0, (level * 1000).rounded())))
        if levels.isEmpty { firstStep = index }
        guard index >= firstStep else { return }
        let slot = index - firstStep
        if slot >= levels.count { levels.append(contentsOf: repeatElement(Self.unknown, count: slot - levels.count + 1)) }
        levels[slot] = levels[slot] == Self.unknown ? value : max(levels[slot], value)
        if levels.count > Self.maximumSteps {
            let drop = levels.count - Self.maximumSteps
            levels.removeFirst(drop)
            firstStep += drop
        }
    }

    /// An event started or ended (or was updated: the same id replaces the earlier record).
    package mutating func record(_ event: MotionEvent) {
        if let i = events.lastIndex(where: { $0.id == event.id }) {
            events[i] = event
        } else {
            events.append(event)
            if events.count > Self.maximumEvents { events.removeFirst(events.count - Self.maximumEvents) }
        }
    }

    /// The step a session time falls in (a time on a step's edge, 10.6 s, is in the step it
    /// starts, whatever the division's rounding).
    package static func stepIndex(_ seconds: Double) -> Int {
        Int((seconds / step + 1e-6).rounded(.down))
    }

    /// The levels between two session times: one per step, nil where nothing was analysed.
    package func levels(from: Double, to: Double) -> [(seconds: Double, level: Double?)] {
        guard !levels.isEmpty, to > from else { return [] }
        let first = max(firstStep, Self.stepIndex(from))
        let last = min(firstStep + levels.count - 1, Int((to / Self.step - 1e-6).rounded(.up)) - 1)
        guard first <= last else { return [] }
        return (first...last).map { step in
            let value = levels[step - firstStep]
            return (Double(step) * Self.step, value == Self.unknown ? nil : Double(value) / 1000)
        }
    }

    /// The events that overlap a range of session time.
    package func events(from: Double, to: Double) -> [MotionEvent] {
        events.filter { $0.end >= from && $0.start < to }
    }
}
