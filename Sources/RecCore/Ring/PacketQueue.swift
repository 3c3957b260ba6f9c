/// The ring's packets in the order they came: a circular queue that drops from its front without
/// moving what stays. Pure storage for `RingState`.
///
/// An array's `removeFirst` moves every packet left behind: a 60 s ring of a camera holds some
/// 4,600 packets (pictures and sound), about 600 KB of them, and it evicted a GOP every second,
/// so each second the whole ring went through the caches for nothing. Here a drop clears its
/// slots (releasing the packets' bytes at once, as before) and moves the start; packets put back
/// at the front (`replaceFront`) take slots just cleared.
///
/// The slots grow by `growth` at a time, not by doubling: every slot is written when it is made,
/// so unused capacity is resident memory (an array's untouched tail is not), and a ring fills
/// once, in the session's first minute.
package struct PacketQueue: RandomAccessCollection, Sendable {
    private var slots: [EncodedPacket?] = []
    /// The slot of element 0.
    private var head = 0
    private var held = 0
    /// Slots added when the queue is full: 36 KB of them.
    static let growth = 256

    package init() {}

    package init(_ packets: [EncodedPacket]) {
        slots = packets.map { $0 }
        held = packets.count
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { held }

    package subscript(position: Int) -> EncodedPacket {
        // Every slot from the head on, `held` of them, holds a packet; a position past them is
        // the caller's error, caught as an array would catch it.
        precondition(position >= 0 && position < held, "packet \(position) of \(held)")
        return slots[slot(position)].unsafelyUnwrapped
    }

    private func slot(_ position: Int) -> Int {
        let s = head + position
        return s < slots.count ? s : s - slots.count
    }

    package mutating func append(_ packet: EncodedPacket) {
        if held == slots.count {
            var grown = [EncodedPacket?](repeating: nil, count: slots.count + Self.growth)
            for i in 0..<held { grown[i] = slots[slot(i)] }
            slots = grown
            head = 0
        }
        slots[slot(held)] = packet
        held += 1
    }

    package mutating func removeAll(keepingCapacity: Bool) {
        if keepingCapacity {
            for i in 0..<held { slots[slot(i)] = nil }
        } else {
            slots = []
        }
        head = 0
        held = 0
    }

    /// Removes the first `n` packets.
    package mutating func removeFirst(_ n: Int) {
        replaceFront(n, with: [])
    }

    /// Removes the first `n` packets and puts `kept` in their place (at most `n` of them: packets
    /// from those removed that must stay), in the order given.
    package mutating func replaceFront(_ n: Int, with kept: [EncodedPacket]) {
        precondition(n >= 0 && n <= held && kept.count <= n, "replacing \(n) of \(held) packets with \(kept.count)")
        for i in 0..<n { slots[slot(i)] = nil }
        head = slot(n - kept.count)
        held -= n - kept.count
        for (i, packet) in kept.enumerated() { slots[slot(i)] = packet }
    }
}
