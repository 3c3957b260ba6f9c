/// A bounded queue of packets from the encode thread to a consumer that may fall behind (the live
/// fan-out, a publisher): appending never waits. When it is full, what it holds is dropped and it
/// starts again at the next picture keyframe, so the consumer always gets whole GOPs. Sound
/// packets (every one a "keyframe" to its codec) never start a GOP: they wait with the pictures.
/// Pure: no threads.
package struct PacketInbox: Sendable {
    package let limit: Int
    package private(set) var packets: [EncodedPacket] = []
    package private(set) var waitingForKeyframe: Bool
    /// Packets thrown away by overflows (what was queued, and the packet that found it full).
    package private(set) var dropped = 0
    package var stopped = false

    package init(limit: Int, startAtKeyframe: Bool = true) {
        self.limit = limit
        self.waitingForKeyframe = startAtKeyframe
    }

    /// True if the packet was queued (wake the consumer).
    package mutating func offer(_ packet: EncodedPacket) -> Bool {
        if stopped { return false }
        let startsGroup = packet.stream == .video && packet.isKeyframe
        if waitingForKeyframe {
            guard startsGroup else { return false }
            waitingForKeyframe = false
        }
        if packets.count >= limit {
            dropped += packets.count
            packets.removeAll()
            if !startsGroup {
                waitingForKeyframe = true
                dropped += 1
                return false
            }
        }
        packets.append(packet)
        return true
    }

    /// Everything queued, oldest first.
    package mutating func take() -> [EncodedPacket] {
        defer { packets.removeAll(keepingCapacity: true) }
        return packets
    }
}
