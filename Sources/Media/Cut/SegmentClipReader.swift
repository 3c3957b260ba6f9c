import RecCore

/// Reads what a cut of `[from, to)` needs from a segmented recording's files, in order, and puts
/// every packet on the session timeline (in the first file's stream time base), as if the packets
/// came from the ring: one continuous stream across the segment boundaries.
public enum SegmentClipReader {
    /// One segment file and the session time at which its own timeline is 0.
    public struct Part: Sendable {
        public var path: String
        public var start: Timestamp
        public init(path: String, start: Timestamp) {
            self.path = path
            self.start = start
        }
    }

    /// The video packets of `parts` (the segments holding `[from, to)`, oldest first) from the
    /// keyframe at or before `from` to the first one that decodes at or after `to`, in session time.
    public static func read(_ parts: [Part], from: Timestamp, to: Timestamp) throws(RecError) -> ClipSource {
        var packets: [EncodedPacket] = []
        var parameters: CodecParameters?
        var timeBase: Rational?
        var lastDTS = Int64.min
        for part in parts {
            let reader = try FileClipReader(path: part.path)
            let tb = timeBase ?? reader.video.timeBase
            (timeBase, parameters) = (tb, parameters ?? reader.video.parameters)
            let offset = part.start.rescaled(to: .microseconds).value
            let local = (from: Timestamp.microseconds(max(0, from.rescaled(to: .microseconds).value - offset)),
                         to: Timestamp.microseconds(to.rescaled(to: .microseconds).value - offset))
            // File time 0 is the stream's start; session time is that plus the part's start.
            let shift = Timestamp(value: reader.start.rescaled(to: tb).value - part.start.rescaled(to: tb).value, timeBase: tb)
            for packet in try reader.read(from: local.from, to: local.to).source.video.packets {
                var p = packet
                p.pts = Timestamp.rescale(p.pts, from: p.timeBase, to: tb)
                p.dts = Timestamp.rescale(p.dts, from: p.timeBase, to: tb)
                p.duration = Timestamp.rescale(p.duration, from: p.timeBase, to: tb)
                p.timeBase = tb
                p.move(back: shift, after: &lastDTS)
                packets.append(p)
            }
        }
        guard let parameters else { throw .runtime("no segment file holds this range; check rec status for what is kept") }
        DecodeTimes.repair(&packets)
        return ClipSource(video: .init(parameters: parameters, packets: packets))
    }
}
