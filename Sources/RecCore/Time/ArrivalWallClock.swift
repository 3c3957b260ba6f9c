/// The wall-clock time of session time 0 when a source tells none of its own (a camera without
/// RTCP sender reports, a webcam, a screen): the wall clock now, less how long ago on the
/// monotonic clock the source's first frame came (its `monotonicEpoch`). Pure.
///
/// Before, a session took the wall clock when the recorder had handled its first frame: after
/// the frame was held for its duration, the file was opened and the ring made, and (for a camera
/// read in bursts) up to a sleep later. Each session of one camera was late by its own amount, so
/// `rec save --session a,b,c` cut their clips a frame or two apart.
package enum ArrivalWallClock {
    /// An epoch further back than this is not the session's start (a source whose clock is not
    /// CLOCK_MONOTONIC after all): the wall clock now is used instead.
    package static let plausibleAge: UInt64 = 60_000_000_000

    /// Microseconds since the Unix epoch of the instant `epoch` (CLOCK_MONOTONIC nanoseconds),
    /// given both clocks read now; `wallNow` itself when there is no plausible epoch.
    package static func atEpoch(_ epoch: UInt64?, wallNow: Int64, monotonicNow: UInt64) -> Int64 {
        guard let epoch, epoch <= monotonicNow, monotonicNow - epoch <= plausibleAge else { return wallNow }
        return wallNow - Int64((monotonicNow - epoch) / 1000)
    }
}
