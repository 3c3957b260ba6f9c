/// The decode-order run of packets one cut needs, found by `CutPlanner`: the selected frames
/// (`from <= pts < to`, in ticks), the keyframe to start decoding at and the last packet needed.
struct CutRun {
    let packets: [PacketTiming]
    let from: Int64
    let to: Int64
    /// Decode indices of the selected frames, ascending.
    let selected: [Int]
    /// The keyframe decoding starts at.
    let start: Int
    /// The last selected packet in decode order.
    let last: Int
    let firstPTS: Int64
    let endPTS: Int64

    init(_ packets: [PacketTiming], from: Int64, to: Int64, requested: (Timestamp, Timestamp),
         timeBase: Rational) throws(RecError) {
        self.packets = packets
        self.from = from
        self.to = to
        selected = packets.indices.filter { from <= packets[$0].pts && packets[$0].pts < to }
        guard let firstIndex = selected.first, let lastIndex = selected.last,
              let first = selected.min(by: { packets[$0].pts < packets[$1].pts }),
              let final = selected.max(by: { packets[$0].pts < packets[$1].pts }) else {
            let before = packets.map(\.pts).filter { $0 < from }.max()
            let after = packets.map(\.pts).filter { $0 >= to }.min()
            let nearest = [before, after].compactMap { $0.map { Timestamp(value: $0, timeBase: timeBase).clockText } }
            throw .usage("no frame starts in \(Timestamp.rangeText(requested.0, requested.1)); the nearest "
                + "frames start at \(nearest.joined(separator: " and ")); widen the range")
        }
        firstPTS = packets[first].pts
        endPTS = packets[final].pts + packets[final].duration
        last = lastIndex
        let firstPTS = firstPTS
        guard let keyframe = packets[...firstIndex].lastIndex(where: { $0.isKeyframe && $0.pts <= firstPTS }) else {
            throw .usage("the stream has no keyframe before \(Timestamp(value: firstPTS, timeBase: timeBase).clockText), "
                + "so that frame cannot be decoded; start later")
        }
        start = keyframe
    }

    func count(in range: ClosedRange<Int>, where predicate: (Int64) -> Bool) -> Int {
        range.count { predicate(packets[$0].pts) }
    }

    /// How many packets right after keyframe `k` in decode order are its leading pictures: shown
    /// before it, and in an open GOP referencing the GOP before it (HEVC RASL, x264 --open-gop).
    func leadingCount(after k: Int) -> Int {
        var n = 0
        while k + 1 + n <= last, !packets[k + 1 + n].isKeyframe, packets[k + 1 + n].pts < packets[k].pts { n += 1 }
        return n
    }

    /// Segments for a cut that must not present a frame outside `[from, to)` in any player: copy
    /// what decodes the same in the clip, re-encode the selected frames before the first copied
    /// keyframe (with that keyframe's leading pictures, which reference the GOP before it) and the
    /// selected frames decoded after the first frame at or after `to`.
    func spliceSegments() -> [CutPlan.Segment] {
        var segments: [CutPlan.Segment] = []
        var copyStart = start
        var lead = leadingCount(after: start)
        let hiddenHead = (start...last).contains { i in packets[i].pts < from && !(start < i && i <= start + lead) }
        if hiddenHead {
            let next = packets[(start + 1)..<(last + 1)].firstIndex(where: \.isKeyframe) ?? last + 1
            guard next <= last else { return [.reencode(decode: start..<(last + 1), presentPTS: firstPTS..<to)] }
            lead = leadingCount(after: next)
            segments.append(.reencode(decode: start..<(lead > 0 ? next + 1 + lead : next), presentPTS: firstPTS..<packets[next].pts))
            copyStart = next
        }
        // The copied keyframe's leading pictures are re-encoded with the head, or (at the start of
        // the run) presented before the range: either way they are not copied.
        let copied = [copyStart] + Array((copyStart + 1 + lead)..<(last + 1))
        var copyEnd = last + 1
        var tail: CutPlan.Segment?
        if let beyond = copied.first(where: { packets[$0].pts >= to }) {
            copyEnd = beyond
            let keyframe = packets[copyStart..<beyond].lastIndex(where: \.isKeyframe) ?? copyStart
            let remaining = (beyond...last).filter { packets[$0].pts < to }.map { packets[$0].pts }
            let copiedMax = copied.filter { $0 < beyond }.map { packets[$0].pts }.max() ?? .min
            if let low = remaining.min() {
                if low > copiedMax {
                    tail = .reencode(decode: keyframe..<(last + 1), presentPTS: low..<to)
                } else {
                    // Reordered so that copying a prefix would interleave: re-encode the whole GOP.
                    copyEnd = keyframe
                    tail = .reencode(decode: keyframe..<(last + 1), presentPTS: packets[keyframe].pts..<to)
                }
            }
        }
        if copyStart < copyEnd {
            segments.append(.copy(copyStart..<(copyStart + 1)))
            if copyStart + 1 + lead < copyEnd { segments.append(.copy((copyStart + 1 + lead)..<copyEnd)) }
        }
        if let tail { segments.append(tail) }
        return merged(segments)
    }

    /// Joins touching copy segments, and a head and tail with nothing copied between them.
    private func merged(_ segments: [CutPlan.Segment]) -> [CutPlan.Segment] {
        var out: [CutPlan.Segment] = []
        for segment in segments {
            switch (out.last, segment) {
            case (.copy(let a)?, .copy(let b)) where a.upperBound == b.lowerBound:
                out[out.count - 1] = .copy(a.lowerBound..<b.upperBound)
            case (.reencode(let d1, let p1)?, .reencode(let d2, let p2)) where p1.upperBound == p2.lowerBound:
                out[out.count - 1] = .reencode(decode: min(d1.lowerBound, d2.lowerBound)..<max(d1.upperBound, d2.upperBound),
                                               presentPTS: p1.lowerBound..<p2.upperBound)
            default:
                out.append(segment)
            }
        }
        return out
    }
}
