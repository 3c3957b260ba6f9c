extension RingState {
    /// How far before the first picture held the ring keeps the other streams: enough for a cut
    /// starting at that picture to decode its first sample exactly (an AAC or Opus decoder needs
    /// the packet or two before it; Opus asks for 80 ms of preroll).
    package static let leadTime = Timestamp.microseconds(120_000)

    /// Adds a packet of a stream other than the timeline, in order. Packets that arrive before
    /// the first picture are kept (the encoder's look-ahead delays pictures more than sound) but
    /// never more than the duration cap; a packet not later than its stream's newest held (a
    /// restarted encoder) starts that stream afresh.
    mutating func appendOther(_ packet: EncodedPacket) {
        let slot = tally.slot(packet.stream)
        if let last = tally.newest[slot], !(last.start < packet.presentationTime) {
            remove(stream: packet.stream)
        }
        packets.append(packet)
        count(in: packet)
        tally.newest[slot] = (packet.presentationTime, packet.endTime)
        if keyframeIndices.isEmpty {
            // No pictures yet: only the duration cap bounds what waits for them.
            let line = Timestamp.microseconds(packet.endTime.rescaled(to: .microseconds).value
                                              - limits.maxDuration.rescaled(to: .microseconds).value)
            var n = 0
            while n < packets.count - 1, !(line < packets[n].endTime) { n += 1 }
            dropFirst(n)
        }
    }

    /// `time − leadTime`: other streams' packets ending at or before it are not needed.
    func leadLine(before time: Timestamp) -> Timestamp {
        Timestamp.microseconds(time.rescaled(to: .microseconds).value - Self.leadTime.rescaled(to: .microseconds).value)
    }

    /// Drops the other streams' packets before the first keyframe that end at or before the lead
    /// line: once, when the first picture arrives (eviction keeps the line after that).
    mutating func trimLead() {
        guard let first = keyframeIndices.first, first > 0 else { return }
        let line = leadLine(before: packets[first].presentationTime)
        let kept = packets[..<first].filter { line < $0.endTime }
        for p in packets[..<first] where !(line < p.endTime) { count(out: p) }
        packets.replaceFront(first, with: kept)
        let shift = first - kept.count
        keyframeIndices = keyframeIndices.map { $0 - shift }
    }

    /// Removes the first `n` packets, none of them the timeline's.
    private mutating func dropFirst(_ n: Int) {
        guard n > 0 else { return }
        for p in packets[..<n] { count(out: p) }
        packets.removeFirst(n)
        keyframeIndices = keyframeIndices.map { $0 - n }
    }

    /// Removes every packet of `stream` (not the timeline): it starts afresh. Rare (a restart),
    /// so a pass over the whole queue.
    private mutating func remove(stream: StreamID) {
        var kept: [EncodedPacket] = []
        var keyframes: [Int] = []
        kept.reserveCapacity(packets.count)
        for p in packets {
            if p.stream == stream {
                count(out: p)
                continue
            }
            if p.stream == timeline && p.isKeyframe {
                keyframes.append(kept.count)
            }
            kept.append(p)
        }
        packets = PacketQueue(kept)
        keyframeIndices = keyframes
        tally.newest[tally.slot(stream)] = nil
    }

    /// The packets of `stream` held, in order.
    package func packets(of stream: StreamID) -> [EncodedPacket] {
        packets.filter { $0.stream == stream }
    }
}
