/// Plans a cut as its packets are read, so that a long range is read once (pure: no I/O): the
/// clip writer may write a video packet, and everything read before it, once this says it is
/// settled, and holds only what came after (a GOP or two), however long the clip.
///
/// The plan (`CutPlanner`) decides at both ends only: the head (the keyframe the cut decodes
/// from, the frames re-encoded before the next one, that one's leading pictures) and the tail
/// (from the first copied packet presented at or after `to`). Between them every packet is
/// copied. So at each video keyframe K after the first copied one, the packets before K are
/// settled when the plan made from what has been read routes them as the final plan will:
/// - the plan of the packets read so far (K included) ends with a copy reaching K, and every
///   other segment ends before K (the head and the first copied keyframe's leading pictures
///   are in hand);
/// - K is selected (`from <= pts < to`) and no packet since the last settled one is presented
///   at or after `to`, so the tail, which starts at the last keyframe before such a packet,
///   starts at K or later;
/// - every packet before K is presented before every packet from K on (closed GOPs, and open
///   ones whose leading pictures follow the GOP before), so their decode times
///   (`CutPlan.decodeTimes`, the i-th smallest pts a few frames back) are known already.
/// What the rest of the range could still change is checked at the end (`agrees`); where it
/// differs the caller writes the clip again from the final plan.
package struct StreamingCut: Sendable {
    package let from: Timestamp
    package let to: Timestamp
    package let mode: CutPlan.Mode
    package let strategy: CutPlan.Strategy
    package let timeBase: Rational
    /// The stream's declared reordering: decode times lag at least this many frames.
    package let reorderDepth: Int
    /// The video packets' timings read so far, decode order.
    package private(set) var timings: [PacketTiming] = []
    /// The plan the settled packets are written by: the head's segments as they will stay, the
    /// last segment a copy left open (to `Int.max`). Nil until the head is settled.
    package private(set) var provisional: CutPlan?
    /// How many video packets (decode order) are settled: they may be written.
    package private(set) var settled = 0
    /// The decode times of the settled packets in the order the clip writes them (ticks of
    /// `timeBase`), as `CutPlan.decodeTimes` gives them over the whole clip.
    package private(set) var decodeTimes: [Int64] = []
    /// Whether copied keyframes carry the source's parameter sets
    /// (`CutPlan.carriesParameterSets`), as the packets read when the head is settled say.
    package private(set) var parameterSets = false
    /// Set when what was read changed decode times already settled: streaming cannot go on.
    package private(set) var diverged = false
    private let fromTick: Int64
    private let toTick: Int64
    private var sortedPTS: [Int64] = []
    private var delay = 0
    private var step = Int64.max

    package init(timeBase: Rational, from: Timestamp, to: Timestamp, mode: CutPlan.Mode, strategy: CutPlan.Strategy,
                reorderDepth: Int = 0) {
        (self.timeBase, self.from, self.to, self.mode, self.strategy) = (timeBase, from, to, mode, strategy)
        self.reorderDepth = max(0, reorderDepth)
        delay = self.reorderDepth
        fromTick = CutPlanner.firstTick(atOrAfter: from, in: timeBase)
        toTick = CutPlanner.firstTick(atOrAfter: to, in: timeBase)
    }

    /// Adds the next video packet's timing (decode order, duration filled); returns whether
    /// more packets are settled (`settled` moved up to this one, a keyframe).
    package mutating func append(_ t: PacketTiming) -> Bool {
        timings.append(t)
        let k = timings.count - 1
        guard t.isKeyframe, k > 0, !diverged else { return false }
        guard let plan = provisional else { return settleHead(at: k) }
        let low = mode == .keyframe ? plan.firstPresentedPTS : fromTick
        guard t.pts >= low, t.pts < toTick, !timings[settled..<k].contains(where: { $0.pts >= toTick }) else { return false }
        return settle(timings[settled..<k].map(\.pts), upTo: k)
    }

    /// The first settling: the plan of what was read decides the head.
    private mutating func settleHead(at k: Int) -> Bool {
        guard let plan = try? CutPlanner.plan(packets: timings, timeBase: timeBase, from: from, to: to, mode: mode,
                                              strategy: strategy, partial: true),
              case .copy(let open)? = plan.segments.last, open.upperBound == k + 1,
              let keyframe = plan.copiedKeyframes.first, keyframe < k,
              plan.segments.dropLast().allSatisfy({ $0.range.upperBound <= k }) else { return false }
        var chunk: [Int64] = []
        for segment in plan.segments {
            switch segment {
            case .copy(let r): chunk += r.clamped(to: 0..<k).map { timings[$0].pts }
            case .reencode(let decode, let present): chunk += decode.map { timings[$0].pts }.filter(present.contains).sorted()
            }
        }
        guard settle(chunk, upTo: k) else { return false }
        var opened = plan
        opened.segments[opened.segments.count - 1] = .copy(open.lowerBound..<Int.max)
        provisional = opened
        parameterSets = plan.carriesParameterSets(timings)
        return true
    }

    /// Settles the packets before `k`, whose pts in write order are `chunk`: their decode times.
    private mutating func settle(_ chunk: [Int64], upTo k: Int) -> Bool {
        let sorted = chunk.sorted()
        if let last = sortedPTS.last, let first = sorted.first, first <= last { return false }
        let base = sortedPTS.count
        var (delay, step) = (self.delay, self.step)
        for (j, pts) in chunk.enumerated() {
            delay = max(delay, base + j - (base + Self.upperBound(sorted, pts) - 1))
        }
        let chain = (sortedPTS.last.map { [$0] } ?? []) + sorted
        for (a, b) in zip(chain, chain.dropFirst()) where b > a { step = min(step, b - a) }
        // The first decode times lie a step before the first pts: wait until a step is seen.
        if delay > 0 && step == .max { return false }
        if base > 0, delay != self.delay || (self.delay > 0 && step != self.step) {
            diverged = true
            return false
        }
        (self.delay, self.step) = (delay, step)
        sortedPTS += sorted
        let s = max(1, step == .max ? 1 : step)
        for i in base..<sortedPTS.count {
            decodeTimes.append(i >= delay ? sortedPTS[i - delay] : sortedPTS[0] - Int64(delay - i) * s)
        }
        settled = k
        return true
    }

    private static func upperBound(_ sorted: [Int64], _ value: Int64) -> Int {
        var (lo, hi) = (0, sorted.count)
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] <= value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Whether `final` (of every packet read) routes and times the settled packets as the
    /// provisional plan did, so what was written stands: the same head and start, the open
    /// copy's packets copied, no later segment reaching back into them, the same decode times,
    /// and parameter sets where the final plan needs them.
    package func agrees(with final: CutPlan) -> Bool {
        guard let plan = provisional else { return true }
        let n = plan.segments.count
        guard final.firstPresentedPTS == plan.firstPresentedPTS, final.segments.count >= n,
              Array(final.segments.prefix(n - 1)) == Array(plan.segments.prefix(n - 1)),
              case .copy(let open) = plan.segments[n - 1], case .copy(let closed) = final.segments[n - 1],
              open.lowerBound == closed.lowerBound, closed.upperBound >= settled,
              final.segments.dropFirst(n).allSatisfy({ $0.range.lowerBound >= settled }),
              parameterSets == final.carriesParameterSets(timings) else { return false }
        let times = final.decodeTimes(timings, reorderDepth: reorderDepth)
        return times.count >= decodeTimes.count && times.prefix(decodeTimes.count).elementsEqual(decodeTimes)
    }

    /// At most how many packets a stream of `rate` packets a second gives a cut of `seconds`
    /// (what an MP4 clip's index must have room for before the range is read): the range and
    /// 4 s more (the GOP before it, sound read ahead), a quarter more again, and 64.
    package static func packetBound(seconds: Double, rate: Double) -> Int {
        guard seconds.isFinite, rate.isFinite, seconds > 0, rate > 0 else { return 64 }
        return Int(((seconds + 4) * rate * 1.25).rounded(.up)) + 64
    }
}
