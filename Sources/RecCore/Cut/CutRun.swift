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

    /// Segments for containers without edit lists: nothing copied may present a frame outside
    /// `[from, to)`.
    func spliceSegments() -> [CutPlan.Segment] {
        var segments: [CutPlan.Segment] = []
        var copyStart = start
        if count(in: start...last, where: { $0 < from }) > 0 {
            let next = packets[(start + 1)..<(last + 1)].firstIndex(where: \.isKeyframe) ?? last + 1
            let presentEnd = next <= last ? min(packets[next].pts, to) : to
            segments.append(.reencode(decode: start..<next, presentPTS: firstPTS..<presentEnd))
            copyStart = next
        }
        guard copyStart <= last else { return segments }
        if count(in: copyStart...last, where: { $0 >= to }) > 0 {
            let tail = packets[copyStart...last].lastIndex(where: \.isKeyframe) ?? copyStart
            if copyStart < tail { segments.append(.copy(copyStart..<tail)) }
            let tailSegment = CutPlan.Segment.reencode(decode: tail..<(last + 1), presentPTS: packets[tail].pts..<to)
            if case .reencode(let decode, let present)? = segments.last, decode.upperBound == tail {
                segments[segments.count - 1] = .reencode(decode: decode.lowerBound..<(last + 1),
                                                         presentPTS: present.lowerBound..<to)
            } else {
                segments.append(tailSegment)
            }
        } else {
            segments.append(.copy(copyStart..<(last + 1)))
        }
        return segments
    }
}
