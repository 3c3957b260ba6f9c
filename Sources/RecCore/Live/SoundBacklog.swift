/// The last seconds of a session's sound, for a stream that starts at a picture keyframe (a live
/// view, a publisher's connection): the sound that plays with that picture went by before it,
/// since the video encoder looks ahead, so the stream takes its first sound from here. Pure.
package struct SoundBacklog: Sendable {
    package let seconds: Double
    /// The sound stream kept (a live view or a publisher carries one), and the pictures it starts at.
    package let sound: StreamID
    package let pictures: StreamID
    package private(set) var packets: [EncodedPacket] = []

    package init(seconds: Double = 2, sound: StreamID = .sound(0), pictures: StreamID = .video) {
        self.seconds = seconds
        self.sound = sound
        self.pictures = pictures
    }

    /// Keeps `packet` if it is of the `sound` stream, and lets go of sound more than `seconds`
    /// older than it.
    package mutating func add(_ packet: EncodedPacket) {
        guard packet.stream == sound else { return }
        packets.append(packet)
        let horizon = Timestamp(seconds: packet.presentationTime.seconds - seconds)
        if let keep = packets.firstIndex(where: { $0.presentationTime >= horizon }), keep > 0 { packets.removeFirst(keep) }
    }

    /// The sound that plays at or after `time`, oldest first.
    package func from(_ time: Timestamp) -> [EncodedPacket] {
        packets.filter { $0.presentationTime >= time }
    }

    /// What a stream that starts now sends from `batch` (packets in the order they came): nothing
    /// before its first picture keyframe, then that keyframe, the sound kept here (and in `batch`
    /// before the keyframe) that plays at or after it, and the rest of `batch`. Every sound packet
    /// of `batch` is kept. Nil, and nothing to send, while `batch` has no picture keyframe.
    package mutating func start(with batch: [EncodedPacket]) -> [EncodedPacket]? {
        guard let k = batch.firstIndex(where: { $0.stream == pictures && $0.isKeyframe }) else {
            batch.forEach { add($0) }
            return nil
        }
        batch[..<k].forEach { add($0) }
        let out = [batch[k]] + from(batch[k].presentationTime) + batch[(k + 1)...]
        batch[(k + 1)...].forEach { add($0) }
        return out
    }
}
