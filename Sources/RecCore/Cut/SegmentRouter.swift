/// Which segments of a `CutPlan` get each packet as a clip's packets stream through, and when
/// (pure: the clip writer carries the events out). Packets arrive once, in decode order; a packet
/// goes to every segment whose range holds it (a copied keyframe also starts a re-encoded tail's
/// decoding, say). Segments are written in clip order, so a segment after the one being written
/// holds its packets until those before it are done: at most a GOP in the plans `CutPlanner` makes.
package struct SegmentRouter<Packet> {
    package enum Event {
        /// Write (copy) or decode (re-encode) the packet as part of the segment.
        case deliver(segment: Int, Packet)
        /// The segment has had all its packets: flush its codecs.
        case finish(segment: Int)
    }

    private var ranges: [Range<Int>]
    private var current = 0
    private var received: [Int]
    private var held: [[Packet]]

    package init(_ segments: [CutPlan.Segment]) {
        ranges = segments.map(\.range)
        received = Array(repeating: 0, count: segments.count)
        held = Array(repeating: [], count: segments.count)
    }

    /// Whether every segment has been finished.
    package var isDone: Bool { current == ranges.count }
    /// Packets held for segments not yet being written.
    package var heldCount: Int { held.reduce(0) { $0 + $1.count } }

    /// Packet `index` (decode order) has arrived: hands `body` what to do now, in order (no
    /// array for each of a long clip's packets).
    package mutating func arrive<E: Error>(_ packet: Packet, index: Int, _ body: (Event) throws(E) -> Void) throws(E) {
        for s in ranges.indices where ranges[s].contains(index) {
            if s == current { try body(.deliver(segment: s, packet)) } else { held[s].append(packet) }
            received[s] += 1
        }
        try advance(body)
    }

    /// Goes on to the segments the final plan of a range read as it was cut (`StreamingCut`) has
    /// in place of the provisional plan's open copy: the same segments up to it, that copy now
    /// ending, those after it new. Hands `body` what that makes due (a copy now complete).
    package mutating func replan<E: Error>(_ segments: [CutPlan.Segment], _ body: (Event) throws(E) -> Void) throws(E) {
        ranges = segments.map(\.range)
        received += Array(repeating: 0, count: max(0, ranges.count - received.count))
        held += Array(repeating: [], count: max(0, ranges.count - held.count))
        try advance(body)
    }

    private mutating func advance<E: Error>(_ body: (Event) throws(E) -> Void) throws(E) {
        while current < ranges.count {
            if !held[current].isEmpty {
                let waiting = held[current]
                held[current] = []
                for p in waiting { try body(.deliver(segment: current, p)) }
            }
            guard received[current] == ranges[current].count else { break }
            try body(.finish(segment: current))
            current += 1
        }
    }
}

extension CutPlan.Segment {
    /// The decode indices of the packets the segment reads.
    package var range: Range<Int> {
        switch self {
        case .copy(let r), .reencode(decode: let r, presentPTS: _): r
        }
    }
}
