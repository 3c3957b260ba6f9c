/// A camera timed by its pictures' arrivals (multipart MJPEG over HTTP, whose container carries
/// no times): which pictures read right after connecting to keep.
///
/// Opening the stream reads its first pictures to learn their size and rate (libavformat's
/// `avformat_find_stream_info`), and hands them out at once afterwards: read in a burst, timed by
/// when rec read them they would sit a few milliseconds apart instead of a frame (four pictures
/// of a 15 a second camera, 0.27 s of its ring, measured). Their arrival is unknown, so they
/// are left out: the timeline starts with the first picture the reader waited for, or whatever
/// comes once `limit` has passed since the stream opened (a reader that never waits is behind,
/// and keeps everything from then on).
package struct ArrivalStart: Sendable {
    /// CLOCK_MONOTONIC nanoseconds when the stream finished opening.
    package let opened: UInt64
    /// A read this long or longer waited for the network.
    package let waited: UInt64
    /// After this long, every picture is kept.
    package let limit: UInt64
    package private(set) var settled = false

    package init(opened: UInt64, waited: UInt64 = 1_000_000, limit: UInt64 = 1_000_000_000) {
        self.opened = opened
        self.waited = waited
        self.limit = limit
    }

    /// Whether a picture whose read began at `started` and ended at `ended` is kept.
    package mutating func keeps(readStarted started: UInt64, ended: UInt64) -> Bool {
        if !settled, ended &- started >= waited || ended &- opened >= limit { settled = true }
        return settled
    }
}

/// A camera timed by its pictures' arrivals: a picture read right after the one before (both
/// waited in the socket while the reader was away: a busy machine) arrives at the same time to
/// the microsecond, and the timeline gives it the same time. Two pictures at one time break
/// what follows: the ring took the second keyframe for a new timeline and let its whole buffer
/// go, and a muxer refuses a decode time that does not rise. Each picture is placed at least
/// `least` after the one before (a millisecond, which every container keeps apart); the times
/// then follow the arrivals again as they come.
package struct ArrivalSpacing: Sendable {
    /// The least time between two pictures, in the pictures' time base.
    package let least: Int64
    private var last: Int64?

    package init(least: Int64) {
        self.least = least
    }

    /// How far to move a picture placed at `time` (0 when it is far enough from the one before).
    package mutating func shift(placing time: Int64) -> Int64 {
        let earliest = last.map { $0 + least } ?? time
        let placed = max(time, earliest)
        last = placed
        return placed - time
    }
}
