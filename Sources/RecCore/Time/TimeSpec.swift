/// A point in time as the user wrote it, before it is placed on a timeline. `TimeParser` makes
/// these; `TimeSelection.resolve` turns a from/to pair into a concrete range.
///
/// Durations are microseconds (`Timestamp` in `Rational.microseconds`).
package enum TimeSpec: Sendable, Equatable {
    /// From the start of the session or file: `12s`, `1:30`, `01:02:03.250`.
    case offset(Timestamp)
    /// Back from the newest frame: `-30s`.
    case fromEnd(Timestamp)
    /// The moment the command runs: `now`.
    case now
    /// Ahead of the moment the command runs (a live session waits for it): `+20s`.
    case fromNow(Timestamp)
    /// A wall-clock instant, microseconds since 1970-01-01T00:00:00Z: `2026-11-29T14:03:05`.
    case wallClock(Timestamp)
}
