@testable import RecCore

/// Encoder-like packet streams for tests: closed GOPs, optional B-frames (with x264-style
/// b-pyramid), variable frame durations, and for every packet the packets it references, so tests
/// can check decodability.
struct SyntheticStream {
    var packets: [EncodedPacket]
    /// For each packet (decode order), the decode indices of the packets it references.
    var references: [[Int]]

    var timeBase: Rational { packets[0].timeBase }
    var allPTS: [Int64] { packets.map(\.pts).sorted() }

    /// - Parameters:
    ///   - gopLengths: frames per GOP, in order.
    ///   - bFrames: consecutive B-frames between anchors (0 = IPPP).
    ///   - duration: ticks of display frame `n` (counting from 0 across the stream).
    static func make(gopLengths: [Int], bFrames: Int = 0, pyramid: Bool = true, openGOP: Bool = false,
                     timeBase: Rational = Rational(1, 90_000), startPTS: Int64 = 0,
                     duration: (Int) -> Int64 = { _ in 3_000 },
                     size: (Int, Bool) -> Int = { _, key in key ? 1_000 : 100 }) -> SyntheticStream {
        var displayPTS: [Int64] = []
        var pts = startPTS
        for n in 0..<gopLengths.reduce(0, +) {
            displayPTS.append(pts)
            pts += duration(n)
        }
        var order: [(display: Int, key: Bool, refs: [Int])] = [] // refs as display indices
        var gopStart = 0
        for length in gopLengths {
            // Open GOP (x265's default): after the first GOP, the keyframe comes `bFrames` frames
            // in, and the frames shown before it are decoded after it, referencing the GOP before.
            let lead = openGOP && gopStart > 0 ? min(bFrames, length - 1) : 0
            var anchors = Array(stride(from: lead, to: length, by: bFrames + 1))
            if anchors.last != length - 1 { anchors.append(length - 1) }
            order.append((gopStart + lead, true, []))
            for n in gopStart..<(gopStart + lead) { order.append((n, false, [gopStart - 1, gopStart + lead])) }
            for (previous, anchor) in zip(anchors, anchors.dropFirst()) {
                let (a, b) = (gopStart + previous, gopStart + anchor)
                order.append((b, false, [a]))
                let between = Array((a + 1)..<b)
                if pyramid && between.count >= 2 {
                    let middle = (a + b) / 2
                    order.append((middle, false, [a, b]))
                    for n in between where n != middle { order.append((n, false, [a, b, middle])) }
                } else {
                    for n in between { order.append((n, false, [a, b])) }
                }
            }
            gopStart += length
        }
        let decodeIndex = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1.display, $0) })
        let sorted = displayPTS.sorted()
        let ptsInDecodeOrder = order.map { displayPTS[$0.display] }
        let shift = zip(sorted, ptsInDecodeOrder).map { $0 - $1 }.max() ?? 0
        var packets: [EncodedPacket] = []
        for (i, frame) in order.enumerated() {
            let n = frame.display
            packets.append(EncodedPacket(
                data: Array(repeating: UInt8(truncatingIfNeeded: n), count: size(i, frame.key)),
                pts: displayPTS[n], dts: sorted[i] - shift, duration: duration(n), timeBase: timeBase,
                isKeyframe: frame.key, captureTime: .microseconds(Timestamp.rescale(
                    displayPTS[n], from: timeBase, to: .microseconds) + 500)))
        }
        return SyntheticStream(packets: packets, references: order.map { $0.refs.map { decodeIndex[$0]! } })
    }

    /// Every packet the frames with pts in `[from, to)` need, directly or through references.
    func closure(ptsIn range: Range<Int64>) -> Set<Int> {
        var needed = Set<Int>()
        var pending = packets.indices.filter { range.contains(packets[$0].pts) }
        while let index = pending.popLast() {
            if needed.insert(index).inserted { pending += references[index] }
        }
        return needed
    }

    func time(_ ticks: Int64) -> Timestamp { Timestamp(value: ticks, timeBase: timeBase) }
}
