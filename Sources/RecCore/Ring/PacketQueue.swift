/// The ring's packets in the order they came: a queue that drops from its front without moving
/// what stays. Pure storage for `RingState`.
///
/// An array's `removeFirst` moves every packet left behind: a 60 s ring of a camera holds some
/// 4,600 packets (pictures and sound), about 600 KB of them, and it evicted a GOP every second,
/// so each second the whole ring went through the caches for nothing. Here a drop clears its
/// slots (releasing the packets' bytes at once, as before) and moves a start index; the slots
/// in front are reused by packets put back at the front (`replaceFront`), and the storage is
/// closed up only when the cleared front outgrows what is held, so each packet moves about once
/// in its life.
package struct PacketQueue: RandomAccessCollection, Sendable {
    private var slots: [EncodedPacket?] = []
    /// The storage index of element 0.
    private var head = 0

    package init() {}

    package init(_ packets: [EncodedPacket]) {
        slots = packets.map { $0 }
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { slots.count - head }

    package subscript(position: Int) -> EncodedPacket {
        // Every slot from `head` on holds a packet: only slots in front of it are cleared.
        slots[head + position].unsafelyUnwrapped
    }

    package mutating func append(_ packet: EncodedPacket) {
        slots.append(packet)
    }

    package mutating func removeAll(keepingCapacity: Bool) {
        slots.removeAll(keepingCapacity: keepingCapacity)
        head = 0
    }

    /// Removes the first `n` packets.
    package mutating func removeFirst(_ n: Int) {
        replaceFront(n, with: [])
    }

    /// Removes the first `n` packets and puts `kept` in their place (at most `n` of them: packets
    /// from those removed that must stay), in the order given.
    package mutating func replaceFront(_ n: Int, with kept: [EncodedPacket]) {
        precondition(n >= 0 && n <= count && kept.count <= n, "replacing \(n) of \(count) packets with \(kept.count)")
        for i in head..<(head + n) { slots[i] = nil }
        head += n - kept.count
        for (offset, packet) in kept.enumerated() { slots[head + offset] = packet }
        if head > 1024 && head > count {
            slots.removeFirst(head)
            head = 0
        }
    }
}
