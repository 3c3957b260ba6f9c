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
