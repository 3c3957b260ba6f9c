/// Gives packets of one stream, arriving in decode order, their presentation durations when the
/// demuxer left them empty: a frame lasts until the next frame in presentation order.
///
/// Streaming: packets are held in a window deep enough for any encoder's reordering (B-frame
/// pyramids reorder a handful of frames), and each leaves the window with its duration once a
/// later-presented frame has been seen. The last frame lasts as long as the one shown before it.
///
/// An encoder's packets need no guessing: the frames went in in presentation order, so
/// `present(_:)` each frame's pts as it goes in, and a packet goes on as soon as the frame after
/// its own has been presented (usually at once, since encoders hold frames back longer than one).
package struct DurationFiller {
    private var window: [EncodedPacket] = []
    /// Durations of presented frames by pts, known once the next frame was presented.
    private var presented: [Int64: Int64] = [:]
    private var lastPresented: Int64?
    /// The pts of recent packets, released or not: a frame's successor may have been decoded first.
    private var recent: [Int64] = []
    /// Durations of recently released packets by pts.
    private var released: [Int64: Int64] = [:]
    private let depth: Int
    private var lastDuration: Int64 = 0

    package init(depth: Int = 32) {
        self.depth = depth
    }

    /// Whether `packet` can go on at once, without waiting in the window: it has its duration and
    /// nothing is held (a stream whose container states every duration, as MP4 does). It is noted
    /// as if released, so a later packet without a duration can still take the one before's.
    package mutating func passes(_ packet: EncodedPacket) -> Bool {
        guard window.isEmpty, packet.duration > 0 else { return false }
        remember(packet.pts)
        note(packet)
        return true
    }

    /// Notes that the frame at `pts` was presented, after every frame presented before it (an
    /// encoder's input: pts strictly increasing); the frame before it lasts until it. Returns the
    /// packets this makes ready, in the order they came.
    package mutating func present(_ pts: Int64) -> [EncodedPacket] {
        if let lastPresented { presented[lastPresented] = pts - lastPresented }
        lastPresented = pts
        // Frames an encoder dropped never come out: forget the oldest half, far behind any delay.
        if presented.count > 1024 {
            for old in presented.keys.sorted().prefix(512) { presented[old] = nil }
        }
        return releaseKnown()
    }

    /// Adds a packet; returns the packets that are ready, in the order they came.
    package mutating func push(_ packet: EncodedPacket) -> [EncodedPacket] {
        window.append(packet)
        remember(packet.pts)
        var ready = releaseKnown()
        while window.count > depth { ready.append(release(window.removeFirst())) }
        return ready
    }

    /// The packets still held, with durations. A packet with nothing to go by (the only frame of
    /// a stream) lasts `lone`.
    package mutating func finish(lone: Int64 = 0) -> [EncodedPacket] {
        var ready: [EncodedPacket] = []
        while !window.isEmpty { ready.append(release(window.removeFirst(), lone: lone)) }
        return ready
    }

    /// Releases the packets at the front whose frames' successors were presented.
    private mutating func releaseKnown() -> [EncodedPacket] {
        var ready: [EncodedPacket] = []
        while let first = window.first, presented[first.pts] != nil { ready.append(release(window.removeFirst())) }
        return ready
    }

    private mutating func release(_ packet: EncodedPacket, lone: Int64 = 0) -> EncodedPacket {
        var p = packet
        let known = presented.removeValue(forKey: p.pts)
        // What presented frames' times say wins over anything an encoder guessed, for the last one too.
        if let known {
            p.duration = known
        } else if p.duration <= 0 || p.pts == lastPresented {
            if let next = recent.lazy.filter({ $0 > p.pts }).min() {
                p.duration = next - p.pts
            } else if let previous = recent.lazy.filter({ $0 < p.pts }).max() {
                // The last frame: as long as the one shown before it (its own duration, if known).
                let known = released[previous] ?? presented[previous]
                    ?? window.first { $0.pts == previous && $0.duration > 0 }?.duration
                p.duration = known ?? (p.pts - previous)
            } else {
                p.duration = lastDuration > 0 ? lastDuration : lone
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
