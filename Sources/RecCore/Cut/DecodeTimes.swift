/// Decode times for packets whose container does not store them. Matroska keeps only
/// presentation times; FFmpeg guesses dts for most packets of a reordered stream but leaves the
/// first few empty (rec then takes their pts), which leaves dts out of order. A clip needs
/// increasing dts no later than pts, so they are rebuilt the way decoders see them: the i-th
/// packet decodes at the i-th smallest presentation time, `delay` frames back.
public enum DecodeTimes {
    /// Whether dts strictly increase and never pass pts.
    public static func areValid(_ packets: [EncodedPacket]) -> Bool { areValid(timings: packets.map(PacketTiming.init)) }

    /// Rebuilds the dts of one stream's packets (decode order) if they are not valid.
    public static func repair(_ packets: inout [EncodedPacket]) {
        var timings = packets.map(PacketTiming.init)
        repair(timings: &timings)
        for i in packets.indices { packets[i].dts = timings[i].dts }
    }

    /// Whether dts strictly increase and never pass pts.
    public static func areValid(timings packets: [PacketTiming]) -> Bool {
        for (i, p) in packets.enumerated() {
            if p.dts > p.pts { return false }
            if i > 0 && p.dts <= packets[i - 1].dts { return false }
        }
        return true
    }

    /// Rebuilds the dts of one stream's packet timings (decode order) if they are not valid.
    public static func repair(timings packets: inout [PacketTiming]) {
        guard !packets.isEmpty, !areValid(timings: packets) else { return }
        let sorted = packets.map(\.pts).sorted()
        var delay = 0
        while delay < packets.count && !(delay..<packets.count).allSatisfy({ sorted[$0 - delay] <= packets[$0].pts }) {
            delay += 1
        }
        let gaps = zip(sorted, sorted.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }
        let step = max(1, gaps.min() ?? 1)
        for i in packets.indices {
            packets[i].dts = i >= delay ? sorted[i - delay] : sorted[0] - Int64(delay - i) * step
        }
    }
}
