/// A range of a paced screen, shown as it was (issue 43). A screen source captures a picture when
/// the screen changes and repeats a still one once a second, so the picture on screen at a time
/// is the last one captured at or before it, not the first after. A camera's range starts on its
/// first frame at or after `from`, a frame away at most; a still screen's next picture may be a
/// second away. So a paced stream's range starts with the picture shown at `from`, moved to
/// `from` (it was on screen from before it), and its last picture is held until `to`: the clip
/// lasts what was asked and shows at every instant what the screen showed then.
///
/// Pure: a paced stream has no B-frames (the recorder turns them off for it), so each picture's
/// pts is its decode time, and moving the first shown one later, to `from`, keeps the order
/// (the next picture is after `from`).
package enum HeldPictures {
    /// `packets` (one video stream, decode order) with the picture on screen at `from` moved to
    /// `from` and the last picture before `to` lasting to `to`; unchanged where a picture already
    /// starts at `from` or ends at `to`, or where the stream has none before `from`.
    package static func held(_ packets: [EncodedPacket], from: Timestamp, to: Timestamp) -> [EncodedPacket] {
        guard let timeBase = packets.first?.timeBase else { return packets }
        let timings = held(packets.map(PacketTiming.init), timeBase: timeBase, from: from, to: to)
        return zip(packets, timings).map { packet, timing in
            guard packet.pts != timing.pts || packet.duration != timing.duration else { return packet }
            var moved = packet
            (moved.pts, moved.dts, moved.duration) = (timing.pts, timing.dts, timing.duration)
            if packet.pts != timing.pts { moved.captureTime = nil }
            return moved
        }
    }

    /// The same on packets' times alone (a file's scan: `FileClip`).
    package static func held(_ packets: [PacketTiming], timeBase: Rational, from: Timestamp, to: Timestamp) -> [PacketTiming] {
        guard from < to else { return packets }
        var out = packets
        let fromTick = CutPlanner.firstTick(atOrAfter: from, in: timeBase)
        let toTick = CutPlanner.firstTick(atOrAfter: to, in: timeBase)
        // The picture on screen at `from`: the last starting at or before it.
        if let shown = out.indices.filter({ out[$0].pts <= fromTick }).max(by: { out[$0].pts < out[$1].pts }),
           out[shown].pts < fromTick, out[shown].pts + out[shown].duration > fromTick {
            let end = out[shown].pts + out[shown].duration
            out[shown].pts = fromTick
            out[shown].dts = max(out[shown].dts, fromTick)
            out[shown].duration = end - fromTick
        }
        // The last picture before `to`, held until `to` (the next may be a second later).
        if let last = out.indices.filter({ out[$0].pts < toTick }).max(by: { out[$0].pts < out[$1].pts }),
           out[last].pts + out[last].duration > toTick {
            out[last].duration = toTick - out[last].pts
        }
        return out
    }
}
