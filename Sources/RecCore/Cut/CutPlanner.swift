/// Plans a frame-exact cut (pure: no I/O). See `CutPlan` for what a plan promises.
///
/// Rules, on packets in decode order with closed GOPs:
/// - The selection is the frames with `from <= pts < to` (compared exactly, whatever the time
///   bases). Copying starts at the last keyframe, in decode order, before every selected frame
///   and presented no later than the first of them; it ends at the last selected packet in decode
///   order. References are decoded before the frames that use them, so this holds every reference,
///   including a later-decoded P-frame presented at or after `to` that earlier B-frames need.
/// - `.editList` copies that run and hides the frames outside the selection.
/// - `.spliceReencode` re-encodes the selected frames before the next keyframe (decoding from the
///   previous one, and through that keyframe's leading pictures) when the run starts with hidden
///   frames, copies from that keyframe up to the first packet presented at or after `to`, and
///   re-encodes the selected frames decoded after that packet (they may reference it). Intra-only
///   streams and keyframe-aligned cuts of streams without B-frames re-encode nothing.
/// - `.keyframe` mode moves the start back to that keyframe's pts, so nothing is hidden at the head;
///   the end stays exact in both modes.
/// Open GOPs: a copied keyframe's leading pictures (decoded after it, presented before it) are never
/// copied without the GOP they reference: they are re-encoded with the head, or left out when they
/// precede the range.
package enum CutPlanner {
    /// Plans the cut of `[from, to)` from one video stream's packets.
    package static func plan(packets: [PacketTiming], timeBase: Rational, from: Timestamp, to: Timestamp,
                            mode: CutPlan.Mode = .exact, strategy: CutPlan.Strategy) throws(RecError) -> CutPlan {
        try plan(packets: packets, timeBase: timeBase, from: from, to: to, mode: mode, strategy: strategy, partial: false)
    }

    /// `partial`: `packets` are the first read of a range not read to its end (`StreamingCut`),
    /// so `to` may lie past them.
    static func plan(packets: [PacketTiming], timeBase: Rational, from: Timestamp, to: Timestamp,
                     mode: CutPlan.Mode, strategy: CutPlan.Strategy, partial: Bool) throws(RecError) -> CutPlan {
        guard from < to else {
            throw .reversedRange(from: from, to: to)
        }
        guard let minPTS = packets.map(\.pts).min(),
              let maxEnd = packets.map({ $0.pts + $0.duration }).max() else {
            throw .usage("the stream has no video frames to cut; check the input with ffprobe")
        }
        let available = (Timestamp(value: minPTS, timeBase: timeBase), Timestamp(value: maxEnd, timeBase: timeBase))
        guard from >= available.0, partial || to <= available.1 else {
            throw .unavailableRange(from: from, to: to, holder: "the stream",
                                    availableFrom: available.0, availableTo: available.1)
        }
        let toTick = firstTick(atOrAfter: to, in: timeBase)
        var run = try CutRun(packets, from: firstTick(atOrAfter: from, in: timeBase), to: toTick,
                             requested: (from, to), timeBase: timeBase)
        if mode == .keyframe {
            run = try CutRun(packets, from: packets[run.start].pts, to: toTick, requested: (from, to), timeBase: timeBase)
        }
        var plan = CutPlan(
            mode: mode, strategy: strategy, segments: [], timeBase: timeBase, requestedFrom: from, requestedTo: to,
            firstPresentedPTS: run.firstPTS, presentedEndPTS: run.endPTS, presentedFrames: run.selected.count,
            prerollFrames: 0, trailingHiddenFrames: 0, reencodedFrames: 0, keyframesUsed: [])
        switch strategy {
        case .editList:
            plan.segments = [.copy(run.start..<(run.last + 1))]
            plan.prerollFrames = run.count(in: run.start...run.last) { $0 < run.from }
            plan.trailingHiddenFrames = run.count(in: run.start...run.last) { $0 >= run.to }
        case .spliceReencode:
            plan.segments = run.spliceSegments()
        }
        for segment in plan.segments {
            switch segment {
            case .copy(let range):
                if packets[range.lowerBound].isKeyframe {
                    plan.keyframesUsed.append(packets[range.lowerBound].pts)
                    plan.copiedKeyframes.append(range.lowerBound)
                }
            case .reencode(let decode, let present):
                plan.reencodedFrames += decode.count { present.contains(packets[$0].pts) }
            }
        }
        return plan
    }

    /// Plans the cut from packets as the ring holds them.
    package static func plan(packets: [EncodedPacket], from: Timestamp, to: Timestamp,
                            mode: CutPlan.Mode = .exact, strategy: CutPlan.Strategy) throws(RecError) -> CutPlan {
        try plan(packets: packets.map(PacketTiming.init), timeBase: packets.first?.timeBase ?? .microseconds,
                 from: from, to: to, mode: mode, strategy: strategy)
    }

    /// The smallest tick of `timeBase` at or after `time`, so that `pts >= tick` exactly when the
    /// frame's time is at or after `time`.
    static func firstTick(atOrAfter time: Timestamp, in timeBase: Rational) -> Int64 {
        var tick = time.rescaled(to: timeBase).value
        while Timestamp(value: tick, timeBase: timeBase) < time { tick += 1 }
        while Timestamp(value: tick - 1, timeBase: timeBase) >= time { tick -= 1 }
        return tick
    }
}
