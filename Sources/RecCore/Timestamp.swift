/// A point in time as ticks of a time base. Never pass a bare `Int64` across a module boundary:
/// pass a `Timestamp`, and rescale exactly once at each boundary (capture → codec → stream).
package struct Timestamp: Hashable, Sendable, CustomStringConvertible {
    package var value: Int64
    package var timeBase: Rational

    package init(value: Int64, timeBase: Rational) {
        self.value = value
        self.timeBase = timeBase
    }

    /// A time in seconds; a value too large for the time base (or not a number) saturates to
    /// `Int64.max`/`.min` rather than trapping, so bad input is caught as out of range.
    package init(seconds: Double, timeBase: Rational = .microseconds) {
        let ticks = (seconds * Double(timeBase.den) / Double(timeBase.num)).rounded()
        if ticks.isNaN || ticks >= 9.2e18 { self.value = .max } else if ticks <= -9.2e18 { self.value = .min } else {
            self.value = Int64(ticks)
        }
        self.timeBase = timeBase
    }

    package static func microseconds(_ us: Int64) -> Timestamp { Timestamp(value: us, timeBase: .microseconds) }
    package static var zero: Timestamp { Timestamp(value: 0, timeBase: .microseconds) }

    package var seconds: Double { Double(value) * timeBase.doubleValue }

    /// This time in another time base, rounded to the nearest tick (halves away from zero), as
    /// `av_rescale_q_rnd(_, _, _, AV_ROUND_NEAR_INF | AV_ROUND_PASS_MINMAX)` does; `Int64.min` and
    /// `Int64.max` pass through unchanged.
    package func rescaled(to target: Rational) -> Timestamp {
        Timestamp(value: Timestamp.rescale(value, from: timeBase, to: target), timeBase: target)
    }

    /// `value * from / to` in 128-bit arithmetic, nearest tick, halves away from zero.
    package static func rescale(_ value: Int64, from: Rational, to: Rational) -> Int64 {
        if value == .min || value == .max || from == to { return value }
        // value * from.num * to.den / (from.den * to.num)
        let b = Int64(from.num) * Int64(to.den)
        let c = Int64(from.den) * Int64(to.num)
        precondition(c != 0, "rescale into a zero time base")
        let negative = (value < 0) != ((b < 0) != (c < 0))
        let mag = value.magnitude.multipliedFullWidth(by: b.magnitude)
        let divisor = c.magnitude
        // Add divisor/2 for round-half-away-from-zero on magnitudes.
        let (low, carry) = mag.low.addingReportingOverflow(divisor / 2)
        let high = mag.high + (carry ? 1 : 0)
        guard high < divisor else { return negative ? .min : .max }
        let (q, _) = divisor.dividingFullWidth((high: high, low: low))
        guard q <= UInt64(Int64.max) else { return negative ? .min : .max }
        return negative ? -Int64(q) : Int64(q)
    }

    package var description: String { "\(value)@\(timeBase)" }
}

extension Timestamp: Comparable {
    /// Compares the instants exactly, whatever their time bases (as `av_compare_ts`).
    package static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        if lhs.timeBase == rhs.timeBase { return lhs.value < rhs.value }
        // lhs.value * lhs.num / lhs.den  <  rhs.value * rhs.num / rhs.den
        let l = (lhs.value * Int64(lhs.timeBase.num)).multipliedFullWidth(by: Int64(rhs.timeBase.den))
        let r = (rhs.value * Int64(rhs.timeBase.num)).multipliedFullWidth(by: Int64(lhs.timeBase.den))
        return l.high < r.high || (l.high == r.high && l.low < r.low)
    }

    package static func == (lhs: Timestamp, rhs: Timestamp) -> Bool {
        if lhs.timeBase == rhs.timeBase { return lhs.value == rhs.value }
        return !(lhs < rhs) && !(rhs < lhs)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(rescaled(to: .microseconds).value)
    }
}
