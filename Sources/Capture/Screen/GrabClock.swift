import Glibc
import RecCore

/// Where a grab's picture belongs on the session timeline. x11grab (libavdevice 5.1) stamps a
/// picture with `av_gettime()`, CLOCK_REALTIME in microseconds, as it grabs it; each stamp is
/// moved onto CLOCK_MONOTONIC with the two clocks' offset measured when the picture is read (a
/// step of the wall clock moves no picture), and the first picture is session time 0.
struct GrabClock {
    /// CLOCK_MONOTONIC nanoseconds of the first picture.
    private(set) var epoch: UInt64?
    private var last: Int64 = -1

    /// Microseconds since the first picture; never going back (a later grab is at least 1 µs on).
    mutating func sessionTime(pts: Int64, timeBase: Rational) -> Int64 {
        let grabbed = Timestamp.rescale(pts, from: timeBase, to: .microseconds)
        let monotonic = Self.now(CLOCK_MONOTONIC)
        let realtime = Self.now(CLOCK_REALTIME)
        // A stamp that is not near the wall clock is taken as a monotonic one already.
        let onMonotonic = abs(realtime - grabbed) < 60_000_000 ? grabbed - (realtime - monotonic) : grabbed
        let instant = pts == Int64.min ? monotonic : min(onMonotonic, monotonic)
        let zero = epoch.map { Int64($0 / 1000) } ?? instant
        if epoch == nil { epoch = UInt64(max(0, instant)) * 1000 }
        let time = max(instant - zero, last + 1)
        last = time
        return time
    }

    private static func now(_ clock: clockid_t) -> Int64 {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }
}
