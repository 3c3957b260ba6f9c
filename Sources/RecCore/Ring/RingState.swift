/// The packet ring's whole policy, as a plain value (no lock, no threads): the encoded packets of
/// one video stream in decode order, and the session's sound beside them (`RingState+Sound`),
/// bounded by `RingLimits`.
///
/// Invariants: the first packet is a keyframe; keyframe presentation times increase; eviction
/// removes whole GOPs from the old end and always leaves at least two keyframes; the sound held
/// starts no later than `soundLead` before the first picture, so the two always cover the same
/// span. `PacketRing` wraps this in a `Mutex` for use across threads.
public struct RingState: Sendable {
    public let limits: RingLimits
    /// The packets held, in decode order.
    public private(set) var packets: [EncodedPacket] = []
    /// Indices into `packets` of the keyframes, ascending (their pts ascend too).
    private(set) var keyframeIndices: [Int] = []
    /// The time base all packets share (that of the first packet held).
    public private(set) var timeBase: Rational?
    /// Largest `pts + duration` held.
    private var endValue: Int64 = .min
    var bytes = 0
    /// Sound packets (stream 1), in order; every one decodes on its own (after a short preroll).
    var sound: [EncodedPacket] = []
    var soundBytes = 0
    private var evicted = 0
    private var cleared = 0

    public init(limits: RingLimits = .replay) {
        self.limits = limits
    }

    /// Adds the next packet in decode order, then evicts old GOPs while a cap is exceeded. The
    /// duration cap evicts a GOP only if what is left still spans the cap, so the ring always
    /// holds at least `--buffer` (and at most one GOP more); the byte cap is strict.
    ///
    /// Packets before the first keyframe cannot be decoded and are dropped. A discontinuity (a
    /// new time base, or a keyframe not later than the previous one, as after an encoder restart)
    /// empties the ring first, so times held always form one timeline.
    public mutating func append(_ packet: EncodedPacket) {
        if packet.streamIndex != 0 { return appendSound(packet) }
        if let timeBase, packet.timeBase != timeBase || isDiscontinuity(packet) {
            evicted += packets.count
            removeAll()
        }
        if packets.isEmpty && !packet.isKeyframe {
            evicted += 1
            return
        }
        timeBase = packet.timeBase
        if packet.isKeyframe { keyframeIndices.append(packets.count) }
        packets.append(packet)
        bytes += packet.size
        endValue = max(endValue, packet.pts + packet.duration)
        while keyframeIndices.count > 2 && isOverLimits {
            evicted += dropLeading(upTo: keyframeIndices[1])
        }
        trimSound()
    }

    public var stats: RingStats {
        RingStats(start: firstPresentationTime, end: endTime, bytes: bytes + soundBytes, packets: packets.count,
                  keyframes: keyframeIndices.count, evictedPackets: evicted, clearedPackets: cleared,
                  soundPackets: sound.count, soundEnd: sound.last?.endTime)
    }

    /// Presentation time of the first keyframe held.
    var firstPresentationTime: Timestamp? { packets.first?.presentationTime }

    /// End of the latest-presented frame held.
    var endTime: Timestamp? {
        guard let timeBase, !packets.isEmpty else { return nil }
        return Timestamp(value: endValue, timeBase: timeBase)
    }

    private var isOverLimits: Bool {
        guard let timeBase, keyframeIndices.count > 1 else { return false }
        let spanAfterEviction = Timestamp(value: endValue - packets[keyframeIndices[1]].pts, timeBase: timeBase)
        return bytes + soundBytes > limits.maxBytes || spanAfterEviction >= limits.maxDuration
    }

    private func isDiscontinuity(_ packet: EncodedPacket) -> Bool {
        guard packet.isKeyframe, let last = keyframeIndices.last else { return false }
        return packet.pts <= packets[last].pts
    }

    /// Removes `packets[..<index]` (`index` is a keyframe or the end) and returns how many.
    mutating func dropLeading(upTo index: Int) -> Int {
        guard index > 0 else { return 0 }
        bytes -= packets[..<index].reduce(0) { $0 + $1.size }
        packets.removeFirst(index)
        keyframeIndices = keyframeIndices.compactMap { $0 >= index ? $0 - index : nil }
        if packets.isEmpty { removeAll() }
        return index
    }

    private mutating func removeAll() {
        sound.removeAll(keepingCapacity: true)
        soundBytes = 0
        packets.removeAll(keepingCapacity: true)
        keyframeIndices.removeAll(keepingCapacity: true)
        bytes = 0
        endValue = .min
        timeBase = nil
    }

    mutating func countCleared(_ count: Int) { cleared += count }
}
