import Testing
@testable import RecCore

/// The ring is one queue of every stream: pictures and two sound streams, interleaved as the
/// encode thread hands them over, evicted a GOP at a time with the sound that plays with it, and
/// snapshotted together.
@Suite struct RingStreamsTests {
    static let rate = Rational(1, 48_000)
    static let lead = RingState.leadTime.seconds
    /// One AAC packet: 1024 samples at 48 kHz.
    static let packet = 1024.0 / 48_000

    /// AAC-like packets of `stream`: 1024 samples each from `start` (samples).
    static func sound(_ stream: StreamID, from start: Int64, count: Int, bytes: Int = 200) -> [EncodedPacket] {
        (0..<count).map { i in
            let pts = start + Int64(i) * 1024
            return EncodedPacket(data: [UInt8](repeating: 1, count: bytes), pts: pts, dts: pts, duration: 1024,
                                 timeBase: rate, isKeyframe: true, stream: stream)
        }
    }

    /// Pictures at 30 fps in 1/30 ticks with a keyframe each second, and the sound of the same
    /// seconds on each of `streams` (two microphones, offset by a few samples), interleaved as
    /// the encode thread hands them over (sound a little ahead).
    static func session(seconds: Int, limits: RingLimits, streams: [StreamID] = [.sound(0), .sound(1)]) -> RingState {
        var ring = RingState(limits: limits)
        let video = SyntheticStream.make(gopLengths: Array(repeating: 30, count: seconds), timeBase: Rational(1, 30),
                                         duration: { _ in 1 }).packets
        let audio = streams.enumerated().map { n, s in sound(s, from: -1024 + Int64(n) * 7, count: seconds * 48_000 / 1024 + 1) }
        var next = [Int](repeating: 0, count: audio.count)
        for packet in video {
            let ahead = Timestamp(seconds: packet.presentationTime.seconds + 0.1)
            for s in audio.indices {
                while next[s] < audio[s].count, audio[s][next[s]].presentationTime < ahead {
                    ring.append(audio[s][next[s]])
                    next[s] += 1
                }
            }
            ring.append(packet)
        }
        return ring
    }

    /// What must hold of an interleaved ring: the first picture is a keyframe, only other
    /// streams' packets that play within the lead come before it, each stream is in order, and
    /// the byte count is every stream's.
    static func checkInvariants(_ ring: RingState) {
        #expect(ring.stats.bytes == ring.packets.reduce(0) { $0 + $1.size })
        guard let first = ring.packets.firstIndex(where: { $0.stream == ring.timeline }) else { return }
        #expect(ring.packets[first].isKeyframe)
        let start = ring.packets[first].presentationTime.seconds
        for p in ring.packets[..<first] {
            #expect(p.stream != ring.timeline)
            #expect(p.endTime.seconds > start - lead)
        }
        for s in ring.stats.streams where s != ring.timeline {
            let held = ring.packets(of: s)
            for (a, b) in zip(held, held.dropFirst()) { #expect(a.pts < b.pts) }
        }
    }

    @Test func everySoundStreamIsEvictedWithItsPictures() {
        let ring = Self.session(seconds: 40, limits: RingLimits(maxDuration: .microseconds(10_000_000), maxBytes: .max))
        Self.checkInvariants(ring)
        let start = ring.stats.start!.seconds
        #expect(ring.stats.evictedPackets > 0)
        #expect(ring.stats.streams == [.video, .sound(0), .sound(1)])
        for s in [StreamID.sound(0), .sound(1)] {
            let first = ring.packets(of: s).first!
            // Each sound starts at most one packet plus the lead before the first picture, never after it.
            #expect(first.presentationTime.seconds <= start)
            #expect(first.endTime.seconds > start - Self.lead - Self.packet)
            #expect(first.presentationTime.seconds <= start - Self.lead)
        }
        #expect(ring.stats.soundPackets == ring.packets.count { $0.stream.isSound })
    }

    @Test func byteCapCountsEveryStream() {
        let limits = RingLimits(maxDuration: .microseconds(1_000_000_000), maxBytes: 60_000)
        let ring = Self.session(seconds: 30, limits: limits)
        Self.checkInvariants(ring)
        #expect(ring.stats.bytes <= limits.maxBytes || ring.stats.keyframes <= 2)
        #expect(ring.stats.evictedPackets > 0)
    }

    @Test func snapshotTakesEveryStreamOfTheRangeInTheOrderTheyCame() throws {
        let ring = Self.session(seconds: 20, limits: .replay)
        let from = Timestamp(seconds: 5.5), to = Timestamp(seconds: 7.25)
        let all = try ring.snapshot(from: from, to: to)
        // The pictures are those a video-only ring gives.
        var pictures = RingState()
        for p in ring.packets where p.stream == .video { pictures.append(p) }
        #expect(all.filter { $0.stream == .video }.map(\.pts) == (try pictures.snapshot(from: from, to: to)).map(\.pts))
        let keyframe = all.first { $0.stream == .video }!.presentationTime.seconds
        for s in [StreamID.sound(0), .sound(1)] {
            let sound = all.filter { $0.stream == s }
            #expect(sound.first!.presentationTime.seconds <= keyframe - Self.lead + 0.0001)
            #expect(sound.last!.endTime.seconds >= to.seconds + Self.lead - Self.packet)
            for (a, b) in zip(sound, sound.dropFirst()) { #expect(a.pts + a.duration == b.pts) }
        }
        // Interleaved as held: the snapshot is a subsequence of the ring's queue.
        var i = ring.packets.startIndex
        for p in all {
            while i < ring.packets.endIndex, !(ring.packets[i].stream == p.stream && ring.packets[i].pts == p.pts) { i += 1 }
            #expect(i < ring.packets.endIndex)
        }
    }

    @Test func clearKeepsEverySoundOfWhatRemains() {
        var ring = Self.session(seconds: 20, limits: .replay)
        ring.clear(upTo: Timestamp(seconds: 12.5))
        Self.checkInvariants(ring)
        let start = ring.stats.start!
        #expect(start == Timestamp(seconds: 12))
        for s in [StreamID.sound(0), .sound(1)] {
            #expect(ring.packets(of: s).first!.presentationTime <= start)
            #expect(ring.packets(of: s).first!.endTime.seconds > start.seconds - Self.lead - Self.packet)
        }
    }

    @Test func soundBeforeThePicturesIsKeptBounded() {
        var ring = RingState(limits: RingLimits(maxDuration: .microseconds(2_000_000), maxBytes: .max))
        let a = Self.sound(.sound(0), from: 0, count: 500), b = Self.sound(.sound(1), from: 0, count: 500)
        for (x, y) in zip(a, b) {
            ring.append(x)
            ring.append(y)
        }
        #expect(ring.stats.packets == 0)
        #expect(ring.packets(of: .sound(0)).count <= 2 * 48_000 / 1024 + 2)
        #expect(ring.packets(of: .sound(1)).count <= 2 * 48_000 / 1024 + 2)
        #expect(ring.packets(of: .sound(1)).last!.pts == 499 * 1024)
        // Then the first picture: only the lead before it stays.
        ring.append(EncodedPacket(data: [0], pts: 300, dts: 300, duration: 1, timeBase: Rational(1, 30), isKeyframe: true))
        Self.checkInvariants(ring)
        for s in [StreamID.sound(0), .sound(1)] {
            let first = ring.packets(of: s).first!
            #expect(first.presentationTime.seconds <= 10 - Self.lead)
            #expect(first.endTime.seconds > 10 - Self.lead)
        }
    }

    @Test func aRestartedSoundStartsAfreshAndLeavesTheOtherAlone() {
        var ring = RingState()
        for p in Self.sound(.sound(0), from: 48_000, count: 10) + Self.sound(.sound(1), from: 48_000, count: 10) { ring.append(p) }
        for p in Self.sound(.sound(0), from: 0, count: 3) { ring.append(p) }
        #expect(ring.packets(of: .sound(0)).map(\.pts) == [0, 1024, 2048])
        #expect(ring.packets(of: .sound(1)).count == 10)
        #expect(ring.stats.bytes == 13 * 200)
    }

    @Test func aSecondVideoStreamRidesAlong() throws {
        // A second camera's pictures are kept for the span of the first's, not purged by its own GOPs.
        var ring = RingState(limits: RingLimits(maxDuration: .microseconds(5_000_000), maxBytes: .max))
        let first = SyntheticStream.make(gopLengths: Array(repeating: 30, count: 12), timeBase: Rational(1, 30), duration: { _ in 1 }).packets
        for p in first {
            ring.append(p)
            var other = p
            other.stream = StreamID(.video, 1)
            ring.append(other)
        }
        Self.checkInvariants(ring)
        #expect(ring.timeline == .video)
        // Its pictures from the lead before the first's keyframe on.
        let second = ring.packets(of: StreamID(.video, 1))
        #expect(second.count == ring.stats.packets + Int((Self.lead * 30).rounded(.up)))
        #expect(second.first!.endTime.seconds > ring.stats.start!.seconds - Self.lead)
        let snap = try ring.snapshot(from: Timestamp(seconds: 8), to: Timestamp(seconds: 9))
        #expect(snap.contains { $0.stream == StreamID(.video, 1) })
    }
}
