extension Array where Element == EncodedPacket {
    /// Fills missing (zero) durations of one stream's packets, given in decode order: each frame
    /// lasts until the next frame in presentation order; the last one until `end` if given, else
    /// as long as the frame before it. Demuxers often leave durations empty (FFmpeg's MP4 demuxer
    /// does), and cuts and edit lists need them.
    public mutating func fillDurations(streamEnd end: Int64? = nil) {
        guard !isEmpty else { return }
        let order = indices.sorted { self[$0].pts < self[$1].pts }
        var previous: Int64 = 0
        for (n, i) in order.enumerated() {
            let next: Int64? = n + 1 < order.count ? self[order[n + 1]].pts : nil
            if self[i].duration <= 0 {
                if let next { self[i].duration = next - self[i].pts }
                else if let end, end > self[i].pts { self[i].duration = end - self[i].pts }
                else { self[i].duration = previous }
            }
            previous = self[i].duration
        }
    }
}
