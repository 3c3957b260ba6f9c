/// Turns the detector's samples into what a session reports (issue 40): whether there is motion
/// now, the level of motion over time, and events with a start, an end, a peak and a place.
/// Pure: session times in seconds in, changes out, in the order the pictures were analysed.
package struct MotionTracker: Sendable {
    package struct Settings: Sendable, Equatable {
        /// Analysed pictures in a row that must show motion before an event starts: one picture is
        /// a flicker (two at 5 a second: motion found at most 0.4 s after it began).
        package var picturesToStart = 2
        /// Seconds without motion after which an event ends (its end is its last moving picture).
        package var quietToEnd = 2.0
        package init() {}
    }

    /// What changed with one sample.
    package enum Change: Sendable, Equatable {
        case started(MotionEvent)
        case ended(MotionEvent)
    }

    package let settings: Settings
    /// The event under way, once started.
    package private(set) var current: MotionEvent?
    /// The level of the latest analysed picture (0 when still).
    package private(set) var level = 0.0
    private var nextID: Int
    /// The pictures with motion seen in a row before an event started: (time, sample).
    private var pending: [(Double, MotionSample)] = []
    private var lastMotion = 0.0

    /// `firstID` numbers the events (a session carries its numbering on from its index file).
    package init(settings: Settings = Settings(), firstID: Int = 1) {
        self.settings = settings
        self.nextID = firstID
    }

    /// Whether motion is under way (an event started and not ended).
    package var isMoving: Bool { current != nil }

    /// Takes the sample of the picture captured at `seconds` (session time).
    package mutating func take(_ sample: MotionSample, at seconds: Double) -> [Change] {
        level = sample.level
        var changes: [Change] = []
        let moving = sample.level > 0
        if var event = current {
            if moving {
                event.include(sample, at: seconds)
                lastMotion = seconds
                current = event
            } else if seconds - lastMotion >= settings.quietToEnd {
                current = nil
                changes.append(.ended(event))
            }
            return changes
        }
        guard moving else {
            pending = []
            return changes
        }
        pending.append((seconds, sample))
        guard pending.count >= settings.picturesToStart else { return changes }
        var event = MotionEvent(id: nextID, start: pending[0].0)
        nextID += 1
        for (time, s) in pending { event.include(s, at: time) }
        pending = []
        lastMotion = seconds
        current = event
        changes.append(.started(event))
        return changes
    }

    /// Ends the event under way at the last picture seen (the session stops or its camera goes
    /// away): an event never stays open across a gap.
    package mutating func finish() -> Change? {
        pending = []
        level = 0
        guard let event = current else { return nil }
        current = nil
        return .ended(event)
    }
}

/// One stretch of motion: from the first analysed picture that showed it to the last.
package struct MotionEvent: Sendable, Equatable, Codable {
    package var id: Int
    /// Session seconds of the first picture with motion.
    package var start: Double
    /// Session seconds of the last picture with motion (so far, while it runs).
    package var end: Double
    /// The most of the picture in motion at once, and when.
    package var peak: Double
    package var peakAt: Double
    /// Where in the picture: the box around every area that moved.
    package var box: MotionRect?

    package init(id: Int, start: Double, end: Double? = nil, peak: Double = 0, peakAt: Double? = nil, box: MotionRect? = nil) {
        self.id = id
        self.start = start
        self.end = end ?? start
        self.peak = peak
        self.peakAt = peakAt ?? start
        self.box = box
    }

    enum CodingKeys: String, CodingKey {
        case id, start, end, peak, peakAt = "peak_at", box
    }

    mutating func include(_ sample: MotionSample, at seconds: Double) {
        end = max(end, seconds)
        if sample.level > peak { (peak, peakAt) = (sample.level, seconds) }
        for area in sample.areas { box = box.map { $0.union(area) } ?? area }
    }

    /// Times to the millisecond and the peak and box to four places, as reports print them.
    package var rounded: MotionEvent {
        func r(_ v: Double, _ scale: Double = 1000) -> Double { (v * scale).rounded() / scale }
        return MotionEvent(id: id, start: r(start), end: r(end), peak: r(peak, 10000), peakAt: r(peakAt),
                           box: box.map { MotionRect(x: r($0.x, 10000), y: r($0.y, 10000), width: r($0.width, 10000), height: r($0.height, 10000)) })
    }

    /// Seconds from its first moving picture to its last.
    package var length: Double { end - start }
}

extension MotionRect {
    /// The smallest rectangle holding both.
    package func union(_ other: MotionRect) -> MotionRect {
        let left = min(x, other.x), top = min(y, other.y)
        let right = max(x + width, other.x + other.width), bottom = max(y + height, other.y + other.height)
        return MotionRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}
