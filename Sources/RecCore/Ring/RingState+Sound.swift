extension RingState {
    /// How far before the first picture held the ring keeps sound: enough for a cut starting at
    /// that picture to decode its first sample exactly (an AAC or Opus decoder needs the packet
    /// or two before it; Opus asks for 80 ms of preroll).
    public static let soundLead = Timestamp.microseconds(120_000)

    /// Adds a sound packet (stream index ≠ 0), in order. Sound that arrives before the first
    /// picture is kept (the encoder's look-ahead delays pictures more than sound) but never more
    /// than the duration cap; a packet not later than the newest held (a restarted encoder) starts
    /// the sound afresh.
    mutating func appendSound(_ packet: EncodedPacket) {
        if let last = sound.last, !(last.presentationTime < packet.presentationTime) {
            sound.removeAll(keepingCapacity: true)
            soundBytes = 0
        }
        sound.append(packet)
        soundBytes += packet.size
        trimSound()
    }

    /// Drops sound that ends more than `soundLead` before the first picture held (or, with no
    /// pictures yet, more than the duration cap before the newest sound).
    mutating func trimSound() {
        guard !sound.isEmpty else { return }
        let line: Timestamp
        if let start = firstPresentationTime {
            line = Timestamp(value: start.rescaled(to: .microseconds).value - Self.soundLead.rescaled(to: .microseconds).value,
                             timeBase: .microseconds)
        } else {
            let newest = sound[sound.count - 1].endTime.rescaled(to: .microseconds).value
            line = .microseconds(newest - limits.maxDuration.rescaled(to: .microseconds).value)
        }
        var n = 0
        while n < sound.count - 1, !(line < sound[n].endTime) { n += 1 }
        guard n > 0 else { return }
        soundBytes -= sound[..<n].reduce(0) { $0 + $1.size }
        sound.removeFirst(n)
    }

    /// The sound a cut of `[from, to)` needs: every packet that plays within
    /// `[from − soundLead, to + soundLead)`, in order. The clip writer cuts them to the sample.
    /// References only: the bytes are shared.
    public func soundSnapshot(from: Timestamp, to: Timestamp) -> [EncodedPacket] {
        let lead = Self.soundLead.rescaled(to: .microseconds).value
        let low = Timestamp.microseconds(from.rescaled(to: .microseconds).value - lead)
        let high = Timestamp.microseconds(to.rescaled(to: .microseconds).value + lead)
        return sound.filter { low < $0.endTime && $0.presentationTime < high }
    }
}
