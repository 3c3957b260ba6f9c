/// Gives packets of one stream, arriving in decode order, their presentation durations when the
/// demuxer left them empty: a frame lasts until the next frame in presentation order.
///
/// Streaming: packets are held in a window deep enough for any encoder's reordering (B-frame
/// pyramids reorder a handful of frames), and each leaves the window with its duration once a
/// later-presented frame has been seen. The last frame lasts as long as the one shown before it.
public struct DurationFiller {
    private var window: [EncodedPacket] = []
    /// The pts of recent packets, released or not: a frame's successor may have been decoded first.
    private var recent: [Int64] = []
    /// Durations of recently released packets by pts.
    private var released: [Int64: Int64] = [:]
    private let depth: Int
    private var lastDuration: Int64 = 0

    public init(depth: Int = 32) {
        self.depth = depth
    }

    /// Whether `packet` can go on at once, without waiting in the window: it has its duration and
    /// nothing is held (a stream whose container states every duration, as MP4 does). It is noted
    /// as if released, so a later packet without a duration can still take the one before's.
    public mutating func passes(_ packet: EncodedPacket) -> Bool {
        guard window.isEmpty, packet.duration > 0 else { return false }
        remember(packet.pts)
        note(packet)
        return true
    }

    /// Adds a packet; returns the packets that are ready, in the order they came.
    public mutating func push(_ packet: EncodedPacket) -> [EncodedPacket] {
        window.append(packet)
        remember(packet.pts)
        var ready: [EncodedPacket] = []
        while window.count > depth { ready.append(release(window.removeFirst())) }
        return ready
    }

    /// The packets still held, with durations.
    public mutating func finish() -> [EncodedPacket] {
        var ready: [EncodedPacket] = []
        while !window.isEmpty { ready.append(release(window.removeFirst())) }
        return ready
    }

    private mutating func release(_ packet: EncodedPacket) -> EncodedPacket {
        var p = packet
        if p.duration <= 0 {
            if let next = recent.lazy.filter({ $0 > p.pts }).min() {
                p.duration = next - p.pts
            } else if let previous = recent.lazy.filter({ $0 < p.pts }).max() {
                // The last frame: as long as the one shown before it (its own duration, if known).
                let known = released[previous] ?? window.first { $0.pts == previous && $0.duration > 0 }?.duration
                p.duration = known ?? (p.pts - previous)
            } else {
                p.duration = lastDuration
            }
        }
        note(p)
        return p
    }

    private mutating func remember(_ pts: Int64) {
        recent.append(pts)
        if recent.count > 3 * depth { recent.removeFirst(recent.count - 2 * depth) }
    }

    private mutating func note(_ p: EncodedPacket) {
        lastDuration = p.duration
        released[p.pts] = p.duration
        if released.count > 3 * depth { released.removeAll(keepingCapacity: true); released[p.pts] = p.duration }
    }
}
