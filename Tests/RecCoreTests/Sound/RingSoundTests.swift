import Testing
@testable import RecCore

/// The ring keeps sound beside the pictures: same span, evicted together, snapshotted together.
@Suite struct RingSoundTests {
    static let rate = Rational(1, 48_000)

    /// AAC-like packets: 1024 samples each from `start` (samples), streamIndex 1.
    static func sound(from start: Int64, count: Int) -> [EncodedPacket] {
        (0..<count).map { i in
            let pts = start + Int64(i) * 1024
            return EncodedPacket(data: [UInt8](repeating: 1, count: 200), pts: pts, dts: pts, duration: 1024,
                                 timeBase: rate, isKeyframe: true, streamIndex: 1)
        }
    }

    /// Pictures at 30 fps in 1/30 ticks with a keyframe each second, and the sound of the same
    /// seconds, interleaved as the encode thread hands them over (sound a little ahead).
    static func session(seconds: Int, limits: RingLimits) -> RingState {
        var ring = RingState(limits: limits)
        let video = SyntheticStream.make(gopLengths: Array(repeating: 30, count: seconds), timeBase: Rational(1, 30),
                                         duration: { _ in 1 }).packets
        let audio = sound(from: -1024, count: seconds * 48_000 / 1024 + 1)
        var a = 0
        for packet in video {
            while a < audio.count, audio[a].presentationTime < Timestamp(seconds: packet.presentationTime.seconds + 0.1) {
                ring.append(audio[a])
                a += 1
            }
            ring.append(packet)
        }
        return ring
    }

    @Test func soundIsEvictedWithThePictures() {
        let ring = Self.session(seconds: 40, limits: RingLimits(maxDuration: .microseconds(10_000_000), maxBytes: .max))
        let start = ring.stats.start!
        let first = ring.sound.first!
        // The sound starts at most one packet plus the lead before the first picture, never after it.
        #expect(first.presentationTime <= start)
        #expect(first.endTime.seconds > start.seconds - RingState.soundLead.seconds - 0.0214)
        #expect(ring.stats.soundPackets == ring.sound.count)
        #expect(ring.stats.bytes == ring.packets.reduce(0) { $0 + $1.size } + ring.sound.reduce(0) { $0 + $1.size })
    }

    @Test func byteCapCountsTheSound() {
        // Sound alone is 200 bytes per 1024 samples: the cap must include it.
        let limits = RingLimits(maxDuration: .microseconds(1_000_000_000), maxBytes: 40_000)
        let ring = Self.session(seconds: 30, limits: limits)
        #expect(ring.stats.bytes <= limits.maxBytes || ring.stats.keyframes <= 2)
    }

    @Test func snapshotTakesTheSoundOfTheRange() throws {
        let ring = Self.session(seconds: 20, limits: .replay)
        let from = Timestamp(seconds: 5.5), to = Timestamp(seconds: 7.25)
        let sound = ring.soundSnapshot(from: from, to: to)
        let lead = RingState.soundLead.seconds
        #expect(sound.first!.presentationTime.seconds <= from.seconds - lead + 0.0001)
        #expect(sound.last!.endTime.seconds >= to.seconds + lead - 0.0214)
        // In order and without holes.
        for (a, b) in zip(sound, sound.dropFirst()) { #expect(a.pts + a.duration == b.pts) }
        #expect(sound.allSatisfy { $0.streamIndex == 1 })
    }

    @Test func clearKeepsSoundOfWhatRemains() {
        var ring = Self.session(seconds: 20, limits: .replay)
        ring.clear(upTo: Timestamp(seconds: 12.5))
        let start = ring.stats.start!
        #expect(start == Timestamp(seconds: 12))
        #expect(ring.sound.first!.presentationTime <= start)
        #expect(ring.sound.first!.endTime.seconds > start.seconds - RingState.soundLead.seconds - 0.0214)
    }

    @Test func soundBeforeThePicturesIsKeptBounded() {
        var ring = RingState(limits: RingLimits(maxDuration: .microseconds(2_000_000), maxBytes: .max))
        for p in Self.sound(from: 0, count: 500) { ring.append(p) }
        #expect(ring.stats.packets == 0)
        #expect(ring.sound.count <= 2 * 48_000 / 1024 + 2)
        #expect(ring.sound.last!.pts == 499 * 1024)
    }

    @Test func aRestartedSoundStartsAfresh() {
        var ring = RingState()
        for p in Self.sound(from: 48_000, count: 10) { ring.append(p) }
        for p in Self.sound(from: 0, count: 3) { ring.append(p) }
        #expect(ring.sound.count == 3)
        #expect(ring.sound.first!.pts == 0)
    }
}
