/// The packet ring's whole policy, as a plain value (no lock, no threads): one queue of every
/// stream's packets in the order the session hands them over (the encode thread interleaves them
/// by time), bounded by `RingLimits` and purged a whole GOP of the timeline stream at a time, with
/// the other streams' packets that went with it (OBS's replay buffer, `replay_buffer_*`).
///
/// The timeline is the first video stream appended: its keyframes are where a clip can start.
/// Every other stream (sound, data, a second picture) rides along and is kept for the span the
/// timeline covers, from `leadTime` before its first keyframe.
///
/// Invariants: the first timeline packet is a keyframe, and only other streams' packets that
/// end within `leadTime` before it precede it; keyframe presentation times increase; eviction
/// removes whole GOPs from the old end and always leaves at least two keyframes. `PacketRing`
/// wraps this in a `Mutex` for use across threads.
public struct RingState: Sendable {
    public let limits: RingLimits
    /// Every stream's packets, in the order they came.
    public internal(set) var packets: [EncodedPacket] = []
    /// Indices into `packets` of the timeline's keyframes, ascending (their pts ascend too).
    var keyframeIndices: [Int] = []
    /// The stream whose GOPs the ring keeps: the first video stream appended.
    public private(set) var timeline: StreamID?
    /// The timeline's time base (that of its first packet held).
    public private(set) var timeBase: Rational?
    /// Largest `pts + duration` of the timeline held.
    private var endValue: Int64 = .min
    private(set) var bytes = 0
    /// Packets held of each stream.
    private(set) var counts: [StreamID: Int] = [:]
    /// The newest packet held of each other stream, for restarts and `stats`.
    var newest: [StreamID: EncodedPacket] = [:]
    private var evicted = 0
    private var cleared = 0

    public init(limits: RingLimits = .replay) {
        self.limits = limits
    }

    /// Adds the next packet, then evicts old GOPs while a cap is exceeded. The duration cap evicts
    /// a GOP only if what is left still spans the cap, so the ring always holds at least `--buffer`
    /// (and at most one GOP more); the byte cap is strict.
    ///
    /// Timeline packets before its first keyframe cannot be decoded and are dropped. A
    /// discontinuity (a new time base, or a keyframe not later than the previous one, as after an
    /// encoder restart) empties the ring first, so times held always form one timeline.
    public mutating func append(_ packet: EncodedPacket) {
        if timeline == nil, packet.stream.isVideo { timeline = packet.stream }
        guard packet.stream == timeline else { return appendOther(packet) }
        if let timeBase, packet.timeBase != timeBase || isDiscontinuity(packet) {
            evicted += pictures
            removeAll()
        }
        if pictures == 0 && !packet.isKeyframe {
            evicted += 1
            return
        }
        timeBase = packet.timeBase
        if packet.isKeyframe { keyframeIndices.append(packets.count) }
        packets.append(packet)
        count(in: packet)
        endValue = max(endValue, packet.pts + packet.duration)
        if pictures == 1 { trimLead() }
        while keyframeIndices.count > 2 && isOverLimits {
            evicted += dropLeading(upTo: keyframeIndices[1])
        }
    }

    public var stats: RingStats {
        RingStats(start: firstPresentationTime, end: endTime, bytes: bytes, packets: pictures,
                  keyframes: keyframeIndices.count, evictedPackets: evicted, clearedPackets: cleared,
                  soundPackets: counts.filter(\.key.isSound).values.reduce(0, +),
                  soundEnd: newest.values.filter(\.stream.isSound).map(\.endTime).min(),
                  streams: counts.filter { $0.value > 0 }.keys.sorted())
    }

    /// Presentation time of the first keyframe held.
    var firstPresentationTime: Timestamp? { keyframeIndices.first.map { packets[$0].presentationTime } }

    /// End of the latest-presented frame held.
    var endTime: Timestamp? {
        guard let timeBase, pictures > 0 else { return nil }
        return Timestamp(value: endValue, timeBase: timeBase)
    }

    private var isOverLimits: Bool {
        guard let timeBase, keyframeIndices.count > 1 else { return false }
        let spanAfterEviction = Timestamp(value: endValue - packets[keyframeIndices[1]].pts, timeBase: timeBase)
        return bytes > limits.maxBytes || spanAfterEviction >= limits.maxDuration
    }

    private func isDiscontinuity(_ packet: EncodedPacket) -> Bool {
        guard packet.isKeyframe, let last = keyframeIndices.last else { return false }
        return packet.pts <= packets[last].pts
    }

    /// Removes the timeline's packets before `index` (a keyframe, or the end) and the other
    /// streams' packets there that end more than `leadTime` before what is left; returns how many
    /// timeline packets went.
    mutating func dropLeading(upTo index: Int) -> Int {
        guard index > 0 else { return 0 }
        let line = index < packets.count ? leadLine(before: packets[index].presentationTime) : nil
        var kept: [EncodedPacket] = []
        var dropped = 0
        for p in packets[..<index] {
            if p.stream != timeline, let line, line < p.endTime {
                kept.append(p)
                continue
            }
            if p.stream == timeline { dropped += 1 }
            count(out: p)
        }
        packets.replaceSubrange(..<index, with: kept)
        let shift = index - kept.count
        keyframeIndices = keyframeIndices.compactMap { $0 >= index ? $0 - shift : nil }
        if pictures == 0 { removeAll() }
        return dropped
    }

    /// Empties the ring, the timeline included (the next video stream appended becomes it).
    private mutating func removeAll() {
        packets.removeAll(keepingCapacity: true)
        keyframeIndices.removeAll(keepingCapacity: true)
        newest.removeAll()
        counts.removeAll()
        bytes = 0
        endValue = .min
        timeBase = nil
    }

    /// Timeline packets held.
    var pictures: Int { timeline.flatMap { counts[$0] } ?? 0 }

    mutating func count(in packet: EncodedPacket) {
        bytes += packet.size
        counts[packet.stream, default: 0] += 1
    }

    mutating func count(out packet: EncodedPacket) {
        bytes -= packet.size
        counts[packet.stream, default: 1] -= 1
    }

    mutating func countCleared(_ count: Int) { cleared += count }
}
