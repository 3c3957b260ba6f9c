/// Decode times for packets whose container does not store them. Matroska keeps only
/// presentation times; FFmpeg guesses dts for most packets of a reordered stream but leaves the
/// first few empty (rec then takes their pts), which leaves dts out of order. A clip needs
/// increasing dts no later than pts, so they are rebuilt the way decoders see them: the i-th
/// packet decodes at the i-th smallest presentation time, `delay` frames back.
package enum DecodeTimes {
    /// Whether dts strictly increase and never pass pts.
    package static func areValid(_ packets: [EncodedPacket]) -> Bool { areValid(timings: packets.map(PacketTiming.init)) }

    /// Rebuilds the dts of one stream's packets (decode order) if they are not valid.
    package static func repair(_ packets: inout [EncodedPacket]) {
        var timings = packets.map(PacketTiming.init)
        repair(timings: &timings)
        for i in packets.indices { packets[i].dts = timings[i].dts }
    }

    /// Whether a packet is presented before one decoded earlier (B-frames, open GOPs).
    package static func reorders(_ packets: [PacketTiming]) -> Bool {
        var latest = Int64.min
        for p in packets {
            if p.pts < latest { return true }
            latest = p.pts
        }
        return false
    }

    /// Whether dts strictly increase and never pass pts.
    package static func areValid(timings packets: [PacketTiming]) -> Bool {
        for (i, p) in packets.enumerated() {
            if p.dts > p.pts { return false }
            if i > 0 && p.dts <= packets[i - 1].dts { return false }
        }
        return true
    }

    /// Rebuilds the dts of one stream's packet timings (decode order) if they are not valid.
    package static func repair(timings packets: inout [PacketTiming]) {
        guard !packets.isEmpty, !areValid(timings: packets) else { return }
        for (i, dts) in rebuilt(pts: packets.map(\.pts)).enumerated() { packets[i].dts = dts }
    }

    /// Decode times for packets presented at `pts` (decode order): the i-th decodes at the i-th
    /// smallest pts, as few frames back as keeps every dts at or before its pts. The decode times
    /// then span exactly what the frames present (an MP4's sample durations are their steps).
    /// `atLeast`: frames back at the least (a stream's declared reordering).
    package static func rebuilt(pts: [Int64], atLeast: Int = 0) -> [Int64] {
        guard !pts.isEmpty else { return [] }
        let sorted = pts.sorted()
        var delay = max(0, atLeast)
        while delay < pts.count && !(delay..<pts.count).allSatisfy({ sorted[$0 - delay] <= pts[$0] }) {
            delay += 1
        }
        let gaps = zip(sorted, sorted.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }
        let step = max(1, gaps.min() ?? 1)
        return pts.indices.map { i in i >= delay ? sorted[i - delay] : sorted[0] - Int64(delay - i) * step }
    }
}
