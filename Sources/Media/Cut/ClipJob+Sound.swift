import CFFmpeg
import RecCore

/// A clip's sound, cut to the sample (`SoundCut`): the packets that play within the clip,
/// copied, on the clip's timeline in ticks of 1/rate, with what the container must hide at each end.
struct SoundTrackCut {
    let cut: SoundCut
    let timeBase: Rational
    /// The packets' times on the sample grid (ticks of 1/rate), when the stream's own time base
    /// is coarser than a sample; used instead of each packet's stated times.
    var grid: [PacketTiming]?
    /// Packets of this stream seen so far in the replay (its index in `soundTimings`).
    var seen = 0
    var lastDTS = Int64.min
    /// Set when `extendGrid` placed again a packet already written (its duration was filled
    /// before the one after it was read): what was written no longer follows the grid.
    var regridded = false

    /// Plans the cut of `track` for the clip presenting `[from, to)` in `container`; nil when the
    /// track is not sound, carries no timings, or plays nothing in the range. `open`: the range
    /// is still being read (`track.soundTimings` are its first packets), so every packet from
    /// the first kept on is kept until the final plan says where the sound ends.
    static func plan(_ track: ClipTrack, from: Timestamp, to: Timestamp, container: ContainerFormat,
                     open: Bool = false) -> SoundTrackCut? {
        let p = track.parameters
        guard p.isAudio, p.sampleRate > 0, let tb = track.soundTimeBase, !track.soundTimings.isEmpty else { return nil }
        var timings = filled(track.soundTimings, parameters: p, timeBase: tb)
        var timeBase = tb
        let rate = Rational(1, Int32(p.sampleRate))
        if tb.doubleValue > rate.doubleValue {
            // Matroska stamps blocks in milliseconds: where the stream runs without gaps, each
            // packet starts where the one before ended, which says its first sample exactly.
            timings = Self.onSampleGrid(timings, from: tb, to: rate, frameSize: Int64(p.frameSize))
            timeBase = rate
        }
        let trim: SoundCut.Trim = container.hasEditLists ? .editList : (p.codec == .opus ? .codecDelay : .packets)
        // Matroska's CodecDelay hides the preroll by starting the track before 0, and the ffmpeg
        // CLI moves every track by the earliest start: 80 ms of Opus preroll made it repeat the
        // first pictures (RealMediaCutTests). There decoding starts at the packet holding the
        // first sample, so the track starts less than one Opus frame (20 ms) early. With
        // `.packets` nothing before the first kept packet can be hidden (`SoundCut.Trim`).
        let preroll = trim == .editList ? p.seekPreroll : 0
        guard var cut = SoundCut.plan(timings: timings, timeBase: timeBase, sampleRate: p.sampleRate, from: from, to: to,
                                      preroll: preroll, trim: trim) else { return nil }
        if open { cut.keep = cut.keep.lowerBound..<Int.max }
        return SoundTrackCut(cut: cut, timeBase: tb, grid: timeBase == tb ? nil : timings)
    }

    /// Durations the demuxer left empty: the gap to the next packet, else one frame.
    static func filled(_ timings: [PacketTiming], parameters p: CodecParameters, timeBase tb: Rational) -> [PacketTiming] {
        var timings = timings
        let frame = Timestamp(value: Int64(max(p.frameSize, 1)), timeBase: Rational(1, Int32(p.sampleRate))).rescaled(to: tb).value
        for i in timings.indices where timings[i].duration <= 0 {
            timings[i].duration = i + 1 < timings.count ? max(1, timings[i + 1].pts - timings[i].pts) : max(1, frame)
        }
        return timings
    }

    /// Extends the sample grid over `track`'s timings read since the cut was planned (a range
    /// still being read), as `plan` places them.
    /// The last one is placed again: its duration may have been filled from the one after it.
    mutating func extendGrid(_ track: ClipTrack) {
        guard let count = grid?.count, count < track.soundTimings.count, let tb = track.soundTimeBase else { return }
        let p = track.parameters
        let start = max(0, count - 1)
        let more = Self.filled(Array(track.soundTimings[start...]), parameters: p, timeBase: tb)
        let placed = Self.onSampleGrid(more, from: tb, to: Rational(1, Int32(p.sampleRate)), frameSize: Int64(p.frameSize),
                                       after: count > 1 ? grid?[count - 2] : nil)
        if start < seen, grid?[start] != placed.first { regridded = true }
        grid?.removeSubrange(start...)
        grid?.append(contentsOf: placed)
    }

    /// Timings rescaled to sample ticks, each packet placed at the end of the one before while
    /// that stays within one tick of `coarse` of its stated time (a gap starts afresh).
    /// A stated duration within one tick of the codec's frame size is that frame size (21 ms of
    /// AAC is 1008 samples, its frame 1024: chaining the rounded ones drifted 1.3 ms).
    static func onSampleGrid(_ timings: [PacketTiming], from coarse: Rational, to rate: Rational, frameSize: Int64 = 0,
                             after previous: PacketTiming? = nil) -> [PacketTiming] {
        let tolerance = Timestamp(value: 1, timeBase: coarse).rescaled(to: rate).value
        var out: [PacketTiming] = []
        var last = previous
        for t in timings {
            var s = t
            s.pts = Timestamp(value: t.pts, timeBase: coarse).rescaled(to: rate).value
            s.duration = Timestamp(value: t.duration, timeBase: coarse).rescaled(to: rate).value
            if frameSize > 0 && abs(s.duration - frameSize) <= tolerance { s.duration = frameSize }
            if let last, abs(last.pts + last.duration - s.pts) <= tolerance { s.pts = last.pts + last.duration }
            s.dts = s.pts
            out.append(s)
            last = s
        }
        return out
    }

    /// The stream's parameters in the clip: with CodecDelay/pre-skip set to the start skip when
    /// the container hides it that way.
    func parameters(_ source: CodecParameters) throws(FFmpegError) -> CodecParameters {
        cut.trim == .codecDelay ? try source.withInitialPadding(Int(cut.startSkip)) : source
    }

    /// The next packet of this stream, moved onto the clip's timeline, or nil if it is not kept.
    mutating func place(_ packet: EncodedPacket) -> EncodedPacket? {
        defer { seen += 1 }
        guard cut.keep.contains(seen) else { return nil }
        let rate = Rational(1, Int32(cut.sampleRate))
        var p = packet
        p.pts = grid.map { $0[seen].pts - cut.firstSample } ?? cut.clipPTS(packet.pts, timeBase: timeBase)
        // Matroska times an Opus block by its decoded samples, CodecDelay included: the reader
        // subtracts the delay (measured with FFmpeg 5.1's matroskadec).
        if cut.trim == .codecDelay { p.pts += cut.startSkip }
        p.duration = grid?[seen].duration ?? Timestamp(value: packet.duration, timeBase: timeBase).rescaled(to: rate).value
        p.timeBase = rate
        // Sound is never reordered: decode order is presentation order.
        p.dts = max(p.pts, lastDTS + 1)
        lastDTS = p.dts
        // The start is hidden by CodecDelay or the edit list; samples the source already discards
        // at a packet's end (libopus's padding on its last packet) stay discarded. Matroska gets
        // DiscardPadding for Opus only (`SoundCut.Trim.packets`).
        var end = packet.sideData.first(where: \.isSkipSamples)?.discardedAtEnd ?? 0
        p.sideData.removeAll { $0.isSkipSamples }
        if seen == cut.keep.upperBound - 1 { end = max(end, Int(cut.endDiscard)) }
        if cut.trim == .codecDelay, end > 0 { p.sideData.append(.skipSamples(start: 0, end: end)) }
        return p
    }
}
