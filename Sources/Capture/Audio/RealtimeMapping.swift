import Glibc
import RecCore

/// Moves libavdevice's capture times onto the session timeline. libavdevice 5.1 stamps pulse and
/// alsa packets with `av_gettime()` (gettimeofday: CLOCK_REALTIME, microseconds) minus the
/// device's latency, smoothed by its DLL time filter; the session timeline is CLOCK_MONOTONIC
/// from `epoch`. The two clocks differ by an offset that only NTP or an admin changes, so it is
/// measured afresh as each packet is read and applied to that packet.
struct RealtimeMapping {
    /// CLOCK_MONOTONIC nanoseconds of session time 0.
    var epoch: UInt64

    /// CLOCK_REALTIME − CLOCK_MONOTONIC now, in nanoseconds: the realtime clock read between two
    /// monotonic reads, against their midpoint (so the error is at most half the few hundred
    /// nanoseconds the three reads take). The corresponding C function is `clock_gettime`.
    static func realtimeOffset() -> Int64 {
        let before = read(CLOCK_MONOTONIC)
        let realtime = read(CLOCK_REALTIME)
        let after = read(CLOCK_MONOTONIC)
        return realtime - (before + (after - before) / 2)
    }

    /// The session time, in microseconds, of `realtime` microseconds since 1970 when realtime
    /// runs `offset` nanoseconds ahead of CLOCK_MONOTONIC; to the nearest microsecond.
    func sessionTime(realtimeMicroseconds realtime: Int64, offset: Int64) -> Timestamp {
        let nanoseconds = realtime * 1_000 - offset - Int64(epoch)
        let rounded = nanoseconds >= 0 ? (nanoseconds + 500) / 1_000 : -((-nanoseconds + 500) / 1_000)
        return .microseconds(rounded)
    }

    /// Session time now, from CLOCK_MONOTONIC, in microseconds.
    func now() -> Timestamp {
        .microseconds((Self.read(CLOCK_MONOTONIC) - Int64(epoch)) / 1_000)
    }

    private static func read(_ clock: clockid_t) -> Int64 {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}
