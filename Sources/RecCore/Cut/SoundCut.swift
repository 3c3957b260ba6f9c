/// How a clip's sound is cut to the sample (pure: no I/O): which packets of a sound stream to
/// copy, where each lands on the clip's timeline, and how many samples the container must hide
/// at each end. `ClipJob` carries it out.
///
/// The clip presents `[from, to)`; its sound is the samples whose times fall in that range:
/// sample n (at n / rate) with `first <= n < end`, `first = ⌈from·rate⌉`, `end = ⌈to·rate⌉`.
/// Packets are copied as they are (never re-encoded): a packet's decoded samples start at its pts.
package struct SoundCut: Sendable, Equatable {
    /// What the clip's container can hide.
    package enum Trim: Sendable, Equatable {
        /// MP4/MOV: the track's edit list starts the presentation at the first sample (media time)
        /// and ends it at the last (its duration), whatever the codec.
        case editList
        /// Matroska/WebM with Opus: CodecDelay (with the OpusHead pre-skip) hides samples at the
        /// start, the last block's DiscardPadding those at the end.
        case codecDelay
        /// Matroska with other codecs: FFmpeg 5.1 writes CodecDelay for Opus only, so nothing can
        /// be hidden: whole packets are kept, from the first at or after the first sample to the
        /// one ending nearest the pictures' end, each at its true time. The sound starts up to
        /// one packet after the pictures (that packet decodes cold, as after any seek) and ends
        /// within half a packet of them. Nothing primes the decoder with its sound discarded,
        /// and no block gets DiscardPadding: players that time sound by counting samples from
        /// the first block (Chromium's AudioDiscardHelper) played a clip whose first block was
        /// discarded whole early by the gap after that block, and Firefox reads DiscardPadding
        /// against the block parsed as Opus and refuses the file (MediaError 3) when it is longer.
        case packets
    }

    package var trim: Trim
    /// Indices (into the stream's packets, in order) of the packets to copy.
    package var keep: Range<Int>
    /// The sample the clip starts at (`⌈from·rate⌉`) and the sample it ends before (`⌈to·rate⌉`).
    package var firstSample: Int64
    package var endSample: Int64
    /// Samples decoded before the clip's first one, to hide (edit list media time, CodecDelay).
    package var startSkip: Int64
    /// Samples of the last packet after the clip's end, to hide (elst duration, DiscardPadding).
    package var endDiscard: Int64
    package var sampleRate: Int

    /// The clip-timeline pts (ticks of 1/sampleRate) for a kept packet presented at `pts` in
    /// `timeBase`: its first sample's position relative to the clip's first sample.
    package func clipPTS(_ pts: Int64, timeBase: Rational) -> Int64 {
        Timestamp(value: pts, timeBase: timeBase).rescaled(to: Rational(1, Int32(sampleRate))).value - firstSample
    }

    /// Plans the cut of one sound stream for the clip `[from, to)`.
    /// - Parameters:
    ///   - timings: the stream's packets in order (pts, durations in `timeBase`).
    ///   - preroll: how much earlier decoding starts than the first sample (AAC's one frame
    ///     overlap, Opus's 80 ms), with `.editList`/`.codecDelay`; `.packets` has none.
    /// - Returns: nil when no packet plays within the range.
    package static func plan(timings: [PacketTiming], timeBase: Rational, sampleRate: Int, from: Timestamp, to: Timestamp,
                            preroll: Int64, trim: Trim) -> SoundCut? {
        guard sampleRate > 0, !timings.isEmpty, from < to else { return nil }
        let rate = Rational(1, Int32(sampleRate))
        let first = ceilTick(from, rate)
        let end = ceilTick(to, rate)
        let starts = timings.map { Timestamp(value: $0.pts, timeBase: timeBase).rescaled(to: rate).value }
        let lengths = timings.map { Timestamp(value: $0.duration, timeBase: timeBase).rescaled(to: rate).value }
        let low: Int
        let high: Int
        switch trim {
        case .editList, .codecDelay:
            let decodeFrom = first - max(0, preroll)
            // The packet holding the preroll's first sample (or the first packet, if sound starts later).
            low = starts.lastIndex { $0 <= decodeFrom } ?? 0
            guard let last = starts.lastIndex(where: { $0 < end }), last >= low,
                  starts[last] + max(lengths[last], 1) > first else { return nil }
            high = last + 1
        case .packets:
            guard let a = starts.firstIndex(where: { $0 >= first }),
                  let b = starts.indices.last(where: { starts[$0] < end && starts[$0] + lengths[$0] / 2 <= end }),
                  b >= a else { return nil }
            (low, high) = (a, b + 1)
        }
        let skip = trim == .packets ? 0 : max(0, first - starts[low])
        let lastEnd = starts[high - 1] + lengths[high - 1]
        let discard = trim == .packets ? 0 : max(0, lastEnd - end)
        return SoundCut(trim: trim, keep: low..<high, firstSample: first, endSample: end, startSkip: skip,
                        endDiscard: discard, sampleRate: sampleRate)
    }

    /// The smallest tick of `base` at or after `time`.
    static func ceilTick(_ time: Timestamp, _ base: Rational) -> Int64 {
        var tick = time.rescaled(to: base).value
        while Timestamp(value: tick, timeBase: base) < time { tick += 1 }
        while Timestamp(value: tick - 1, timeBase: base) >= time { tick -= 1 }
        return tick
    }
}
