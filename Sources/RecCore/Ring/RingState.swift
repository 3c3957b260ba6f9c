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
package struct RingState: Sendable {
    package let limits: RingLimits
    /// Every stream's packets, in the order they came.
    package internal(set) var packets = PacketQueue()
    /// Indices into `packets` of the timeline's keyframes, ascending (their pts ascend too).
    var keyframeIndices: [Int] = []
    /// The stream whose GOPs the ring keeps: the first video stream appended.
    package private(set) var timeline: StreamID?
    /// The timeline's time base (that of its first packet held).
    package private(set) var timeBase: Rational?
    /// Largest `pts + duration` of the timeline held.
    private var endValue: Int64 = .min
    /// Largest `pts` of the timeline held: the newest picture.
    private var newestValue: Int64 = .min
    private(set) var bytes = 0
    /// Packets held of each stream, and the newest of each other stream (for restarts and
    /// `stats`): by the stream's place in a short list, not hashed for every packet.
    var tally = StreamTally()
    /// Timeline packets held.
    private(set) var pictures = 0
    private var evicted = 0
    private var cleared = 0
    /// The latest presentation time of a picture the caps or a clear let go (nil after a
    /// discontinuity): a range starting after it loses nothing the ring once held.
    private var letGoUpTo: Timestamp?
    /// Where the saves under way start, by hold (`hold(from:)`).
    private var holds: [Int: Timestamp] = [:]
    private var nextHold = 0

    package init(limits: RingLimits = .replay) {
        self.limits = limits
    }

    /// Adds the next packet, then evicts old GOPs while a cap is exceeded. The duration cap evicts
    /// a GOP only if what is left still spans the cap, so the ring always holds at least `--buffer`
    /// (and at most one GOP more), and never a picture a save under way holds (`hold(from:)`); the
    /// byte cap is strict.
    ///
    /// Timeline packets before its first keyframe cannot be decoded and are dropped. A
    /// discontinuity (a new time base, or a keyframe not later than the previous one, as after an
    /// encoder restart) empties the ring first, so times held always form one timeline.
    package mutating func append(_ packet: EncodedPacket) {
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
        newestValue = max(newestValue, packet.pts)
        if pictures == 1 { trimLead() }
        while keyframeIndices.count > 2 && isOverLimits {
            evicted += dropLeading(upTo: keyframeIndices[1])
        }
    }

    package var stats: RingStats {
        RingStats(start: firstPresentationTime, end: endTime, servesFrom: servesFrom, bytes: bytes, packets: pictures,
                  keyframes: keyframeIndices.count, evictedPackets: evicted, clearedPackets: cleared,
                  soundPackets: tally.indices.filter { tally.ids[$0].isSound }.reduce(0) { $0 + tally.counts[$1] },
                  soundEnd: tally.indices.filter { tally.ids[$0].isSound }.compactMap { tally.newest[$0]?.end }.min(),
                  streams: tally.indices.filter { tally.counts[$0] > 0 }.map { tally.ids[$0] }.sorted(),
                  newest: endTime.flatMap { _ in timeBase.map { Timestamp(value: newestValue, timeBase: $0) } })
    }

    /// Presentation time of the first keyframe held.
    var firstPresentationTime: Timestamp? { keyframeIndices.first.map { packets[$0].presentationTime } }

    /// The earliest start of a range the ring serves whole: a cut takes the pictures presented
    /// from its start on, so a start after the last picture let go (before the first held, in
    /// the gap between the two) needs nothing the ring no longer has. Nil when empty.
    var servesFrom: Timestamp? {
        guard let start = firstPresentationTime else { return nil }
        guard let letGoUpTo, letGoUpTo < start else { return start }
        return Timestamp.microseconds(min(letGoUpTo.rescaled(to: .microseconds).value + 1, start.rescaled(to: .microseconds).value))
    }

    /// Holds the pictures presented from `from` on against the duration cap until `release`: a
    /// save that waits (for its end in the future, for the sound of its last picture) still finds
    /// its start. Returns the hold's number.
    package mutating func hold(from: Timestamp) -> Int {
        nextHold += 1
        holds[nextHold] = from
        return nextHold
    }

    package mutating func release(_ hold: Int) {
        holds[hold] = nil
    }

    /// End of the latest-presented frame held.
    var endTime: Timestamp? {
        guard let timeBase, pictures > 0 else { return nil }
        return Timestamp(value: endValue, timeBase: timeBase)
    }

    private var isOverLimits: Bool {
        guard let timeBase, keyframeIndices.count > 1 else { return false }
        let next = packets[keyframeIndices[1]]
        let spanAfterEviction = Timestamp(value: endValue - next.pts, timeBase: timeBase)
        // Evicting the first GOP lets go of the pictures presented before the next keyframe.
        let held = holds.values.min().map { $0 < next.presentationTime } ?? false
        return bytes > limits.maxBytes || (spanAfterEviction >= limits.maxDuration && !held)
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
            if p.stream == timeline {
                dropped += 1
                letGoUpTo = max(letGoUpTo ?? p.presentationTime, p.presentationTime)
            }
            count(out: p)
        }
        packets.replaceFront(index, with: kept)
        let shift = index - kept.count
        keyframeIndices = keyframeIndices.compactMap { $0 >= index ? $0 - shift : nil }
        if pictures == 0 { removeAll() }
        return dropped
    }

    /// Empties the ring, the timeline included (the next video stream appended becomes it).
    private mutating func removeAll() {
        packets.removeAll(keepingCapacity: true)
        keyframeIndices.removeAll(keepingCapacity: true)
        tally = StreamTally()
        pictures = 0
        bytes = 0
        endValue = .min
        newestValue = .min
        timeBase = nil
        letGoUpTo = nil
    }

    /// Adds a packet to the counts; returns its stream's place in `tally`.
    @discardableResult
    mutating func count(in packet: EncodedPacket) -> Int {
        bytes += packet.size
        let slot = tally.slot(packet.stream)
        tally.counts[slot] += 1
        if packet.stream == timeline { pictures += 1 }
        return slot
    }

    mutating func count(out packet: EncodedPacket) {
        bytes -= packet.size
        tally.counts[tally.slot(packet.stream)] -= 1
        if packet.stream == timeline { pictures -= 1 }
    }

    mutating func countCleared(_ count: Int) { cleared += count }
}

/// Each stream's packet count and newest packet, by the stream's place in `ids` (two or three
/// streams: a search of the list is cheaper than hashing for every packet). Places are never
/// reused; a stream removed keeps its place with a count of 0.
struct StreamTally: Sendable {
    private(set) var ids: [StreamID] = []
    var counts: [Int] = []
    /// The presentation time and end of each stream's newest packet (kept for the other streams).
    var newest: [(start: Timestamp, end: Timestamp)?] = []

    var indices: Range<Int> { ids.indices }

    /// The stream's place, added if new.
    mutating func slot(_ id: StreamID) -> Int {
        if let i = ids.firstIndex(of: id) { return i }
        ids.append(id)
        counts.append(0)
        newest.append(nil)
        return ids.count - 1
    }
}
