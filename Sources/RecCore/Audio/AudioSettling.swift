/// When a live sound source's timestamps can be trusted, and the times of the chunks read before
/// then. Pure: the audio thread feeds it the chunks a device delivers before the recording's
/// sound starts (docs/TIMESTAMPS.md, "A device's first second").
///
/// libavdevice's PulseAudio input stamps a new stream's first packets with a latency figure from
/// before the server reported one: against a real server's null-sink monitor they read 0.46 s
/// early and advance 1.5 times too fast, converging over about a second, while the samples
/// themselves come complete and in real time from the first packet on (measured: the instant of
/// each read less the sound delivered so far stays within 10 ms). So the chunks are kept, the
/// clock waits until the times have settled, and the chunks read before are timed back from the
/// first settled one by their lengths.
///
/// Settled: at least `bounds.lowerBound` seconds of sound since the first chunk, and then either
/// the last half second of chunks advanced by as much as their own length (within 5 ms), or
/// `bounds.upperBound` seconds of sound. Counted in sound rather than wall-clock time: a device
/// delivers it in real time, and a server that took a second to send its first chunk has not
/// thereby settled.
package struct AudioSettling: Sendable, Equatable {
    /// Seconds of sound since the first chunk (see above).
    package let bounds: ClosedRange<Double>
    /// Seconds of sound delivered so far.
    package private(set) var delivered = 0.0
    private var recent: [Chunk] = []

    private struct Chunk: Sendable, Equatable {
        var time: Double
        var length: Double
    }

    /// The span of recent chunks judged, and how far their times may stray from their lengths.
    static let span = 0.5
    static let tolerance = 0.005

    package init(bounds: ClosedRange<Double>) {
        self.bounds = bounds
    }

    /// One more chunk: its observed time and its length, in seconds.
    package mutating func add(time: Double, length: Double) {
        delivered += length
        recent.append(Chunk(time: time, length: length))
        while recent.count > 1, recent[recent.count - 1].time - recent[0].time > Self.span { recent.removeFirst() }
    }

    /// Whether the last chunk's time can be trusted.
    package var isSettled: Bool {
        // Within a microsecond: a sum of chunk lengths in seconds is rarely exact.
        guard !recent.isEmpty, delivered + 1e-6 >= bounds.lowerBound else { return false }
        return isSteady || delivered + 1e-6 >= bounds.upperBound
    }

    /// The recent chunks' times advanced by as much as their lengths, over at least 0.4 s.
    package var isSteady: Bool {
        guard let first = recent.first, let last = recent.last, last.time - first.time >= Self.span - 0.1 else { return false }
        let played = recent.dropLast().reduce(0) { $0 + $1.length }
        return abs((last.time - first.time) - played) <= Self.tolerance
    }

    /// The start times of chunks of `lengths` read back to back, the last of which starts at
    /// `last` (all in µs): each ends where the next begins, as no sample is lost between them.
    package static func backdated(lengths: [Int64], last: Int64) -> [Int64] {
        guard !lengths.isEmpty else { return [] }
        var times = Array(repeating: last, count: lengths.count)
        for i in lengths.indices.dropLast().reversed() {
            times[i] = times[i + 1] - lengths[i]
        }
        return times
    }
}
