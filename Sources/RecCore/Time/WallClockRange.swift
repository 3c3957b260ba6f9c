import Foundation

/// The one range a save from several sessions (`rec save --session a,b,c`, `--all`) sends to
/// each of them: two wall-clock instants, so every session cuts the same moments, each mapping
/// them onto its own timeline with its own clock.
///
/// Wall-clock times (`2026-11-29T14:03:05`) stay the instants they name. Times that count from
/// now (`-20s`, `now`, `+5s`, `--last 30s`) become instants here, once, at the moment of the
/// command, rather than in each session as its request arrives. Times from a session's start
/// (`12s`, `1:30`) mean a different moment in each session and are refused, except hours,
/// minutes and seconds (`14:03:05`), which with several sessions can only mean a time of day:
/// today's, in the given time zone (yesterday's when today's is more than an hour ahead).
package struct WallClockRange: Sendable, Equatable {
    /// Microseconds since 1970-01-01T00:00:00Z, inclusive.
    package var from: Timestamp
    /// Microseconds since 1970-01-01T00:00:00Z, exclusive.
    package var to: Timestamp

    package init(from: Timestamp, to: Timestamp) {
        self.from = from
        self.to = to
    }

    /// The range `selection` names at `now` (microseconds since the epoch). `fromText` and
    /// `toText` are the ends as the user wrote them, for messages. A missing end is now; a
    /// missing start is refused, since each session would start at its own oldest frame.
    package static func aligning(_ selection: TimeSelection, now: Timestamp, fromText: String? = nil, toText: String? = nil,
                                timeZone: TimeZone = .current) throws(RecError) -> WallClockRange {
        guard let start = selection.from else {
            throw .usage("with several sessions give --from as well as --to, or --last 30s, so that every clip starts at the same moment")
        }
        let from = try instant(start, now: now, option: "--from", text: fromText, timeZone: timeZone)
        let to = try selection.to.map { spec throws(RecError) in
            try instant(spec, now: now, option: "--to", text: toText, timeZone: timeZone)
        } ?? now
        guard from < to else {
            throw .usage("the range from \(fromText ?? "--last") to \(toText ?? "now") is empty or ends before it starts; --from must come before --to")
        }
        return WallClockRange(from: from, to: to)
    }

    /// The ends as seconds since the epoch, for the request's `{"unix": s}`: a `Double` of this
    /// size carries the microseconds exactly back (its step is about 0.24 µs).
    package var unixSeconds: (from: Double, to: Double) { (from.seconds, to.seconds) }

    private static func instant(_ spec: TimeSpec, now: Timestamp, option: String, text: String?,
                                timeZone: TimeZone) throws(RecError) -> Timestamp {
        func us(_ t: Timestamp) -> Int64 { t.rescaled(to: .microseconds).value }
        switch spec {
        case .wallClock(let t): return .microseconds(us(t))
        case .now: return .microseconds(us(now))
        case .fromEnd(let d): return .microseconds(us(now).subtractingSaturated(us(d)))
        case .fromNow(let d): return .microseconds(us(now).addingSaturated(us(d)))
        case .offset(let d) where text?.count(where: { $0 == ":" }) == 2:
            return timeOfDay(d, before: now, timeZone: timeZone)
        case .offset:
            throw .usage("\(option) \(text ?? "") counts from each session's own start, a different moment in each session; "
                + "with several sessions give wall-clock times such as 14:03:05 or 2026-11-29T14:03:05, times back from now such as -20s, or --last 30s")
        }
    }

    /// `clock` after today's local midnight at `now`; a day earlier when that is more than an
    /// hour after `now` (`23:59:00` said just after midnight is yesterday's). A day is taken as
    /// 24 hours: on the night clocks change, a time after the change is an hour off.
    static func timeOfDay(_ clock: Timestamp, before now: Timestamp, timeZone: TimeZone) -> Timestamp {
        let seconds = now.rescaled(to: .microseconds).value / 1_000_000
        let offset = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
        let midnight = ((seconds + offset) / 86_400) * 86_400 - offset
        var t = midnight * 1_000_000 + clock.rescaled(to: .microseconds).value
        if t > now.rescaled(to: .microseconds).value + 3_600_000_000 { t -= 86_400_000_000 }
        return .microseconds(t)
    }
}
