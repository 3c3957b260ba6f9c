/// Where a session's pictures stopped and started again: the outages a review timeline shades and
/// saves report as missing. Fed the session time of each picture as it is captured (in capture
/// order) and the source's own reports that it went away; pure, so it is tested without threads.
///
/// - A gap is recorded when two consecutive pictures are more than `threshold` apart
///   (max(`shortest`, 3 nominal frame intervals)): a camera that stalled, a network camera that
///   sent nothing. It runs from the end of the picture before (its start plus one nominal frame)
///   to the start of the picture after.
/// - After the source says it went away (`sourceAway`), the next picture from after the outage
///   ends a gap of any length, with the source's reason. Pictures the source held from before it
///   went away (a network camera's last packet waits for its successor's time) and hands out on
///   reconnecting move the gap's start past them instead: within half a frame of where the gap
///   would begin, or earlier.
/// - At most `limit` gaps are kept, the oldest forgotten first.
package struct GapTracker: Sendable {
    package struct Gap: Sendable, Equatable {
        package var start: Timestamp
        package var end: Timestamp
        package var reason: String
        /// Whether the source said it went away (else the pictures just stopped coming).
        package var reported: Bool

        package init(start: Timestamp, end: Timestamp, reason: String, reported: Bool) {
            (self.start, self.end, self.reason, self.reported) = (start, end, reason, reported)
        }

        package var seconds: Double { end.seconds - start.seconds }
    }

    /// The nominal frame interval in seconds (0 when the source does not say).
    package var frameInterval: Double
    /// The shortest silence that is a gap when the source reports none (1 s; more for a source
    /// whose pictures come unevenly, a screen repeating a still picture once a second).
    package var shortest: Double
    package let limit: Int
    package private(set) var gaps: [Gap] = []
    /// Gaps forgotten because more than `limit` came.
    package private(set) var forgotten = 0
    /// The start of the newest picture.
    package private(set) var newest: Timestamp?
    /// The outage the source reported and no picture has ended yet: why, and where it begins.
    private var away: (reason: String, from: Timestamp)?

    package init(frameInterval: Double = 0, shortest: Double = 1, limit: Int = 10_000) {
        (self.frameInterval, self.shortest, self.limit) = (max(0, frameInterval), shortest, max(1, limit))
    }

    /// The silence between two pictures beyond which there is a gap.
    package var threshold: Double { max(shortest, 3 * frameInterval) }

    /// The source said it went away (`reason`, e.g. "rtsp://cam/ ended the stream"). Before the
    /// first picture there is nothing to miss.
    package mutating func sourceAway(_ reason: String) {
        guard let newest else { return }
        if away == nil { away = (reason, Timestamp(seconds: newest.seconds + frameInterval)) } else { away?.reason = reason }
    }

    /// A picture presented at `time` was captured; returns the gap it ends, if any.
    @discardableResult
    package mutating func picture(at time: Timestamp) -> Gap? {
        guard let last = newest else {
            (newest, away) = (time, nil)
            return nil
        }
        if time > last { newest = time }
        if let outage = away {
            if time.seconds < outage.from.seconds + frameInterval / 2 {
                away?.from = Timestamp(seconds: max(outage.from.seconds, time.seconds + frameInterval))
                return nil
            }
            away = nil
            return record(Gap(start: outage.from, end: time, reason: outage.reason, reported: true))
        }
        let silence = time.seconds - last.seconds
        guard silence > threshold else { return nil }
        return record(Gap(start: Timestamp(seconds: last.seconds + frameInterval), end: time,
                          reason: "no pictures for " + Self.seconds(silence) + " (the source stalled)", reported: false))
    }

    /// The gap under way at session time `now`: the source reported an outage and no picture has
    /// come since; nil otherwise. `ended` is why the recording ended, when it has: then the gap
    /// runs from the last picture to `now` with that reason. It ends at `now`, or where it
    /// starts if `now` is earlier: `now` is the wall clock's, and a source's timeline may run
    /// ahead of it (a network camera that sent its first second at once). For the same reason a
    /// silence the source did not report shows only once a picture ends it.
    package func current(at now: Timestamp, ended: String? = nil) -> Gap? {
        guard let newest, let reason = ended ?? away?.reason else { return nil }
        let start = away?.from ?? Timestamp(seconds: newest.seconds + frameInterval)
        return Gap(start: start, end: max(now, start), reason: reason, reported: true)
    }

    /// The gaps that overlap `range`, oldest first.
    package func gaps(in range: Range<Timestamp>) -> [Gap] {
        gaps.filter { $0.end > range.lowerBound && $0.start < range.upperBound }
    }

    /// Seconds of `range` that fall in gaps (only those the source reported with `reportedOnly`);
    /// nil when none.
    package func missingSeconds(in range: Range<Timestamp>, reportedOnly: Bool = false) -> Double? {
        let total = gaps(in: range).filter { $0.reported || !reportedOnly }.reduce(0.0) { sum, gap in
            sum + max(0, min(gap.end.seconds, range.upperBound.seconds) - max(gap.start.seconds, range.lowerBound.seconds))
        }
        return total > 0 ? total : nil
    }

    private mutating func record(_ gap: Gap) -> Gap? {
        guard gap.end > gap.start else { return nil }
        gaps.append(gap)
        if gaps.count > limit {
            forgotten += gaps.count - limit
            gaps.removeFirst(gaps.count - limit)
        }
        return gap
    }

    private static func seconds(_ s: Double) -> String {
        let text = String(Int((s * 10).rounded()))
        return text.count > 1 ? "\(text.dropLast()).\(text.suffix(1)) s" : "0.\(text) s"
    }
}
