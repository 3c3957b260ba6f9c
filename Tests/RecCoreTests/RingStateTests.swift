import Testing
@testable import RecCore

@Suite struct RingStateTests {
    /// 1/30 s ticks, one frame per tick.
    static let tb = Rational(1, 30)
    static func ipp(gops: Int, length: Int = 30) -> SyntheticStream {
        .make(gopLengths: Array(repeating: length, count: gops), timeBase: tb, duration: { _ in 1 })
    }
    static func t(_ ticks: Int64) -> Timestamp { Timestamp(value: ticks, timeBase: tb) }

    /// What must hold after every append.
    static func checkInvariants(_ ring: RingState) {
        let stats = ring.stats
        #expect(ring.packets.first?.isKeyframe ?? true)
        #expect(stats.bytes == ring.packets.reduce(0) { $0 + $1.size })
        #expect(stats.keyframes == ring.packets.filter(\.isKeyframe).count)
        if stats.keyframes > 2 {
            #expect(stats.bytes <= ring.limits.maxBytes)
            // The duration cap keeps at least the cap: the oldest GOP stays while dropping it
            // would leave less than the cap, so only what follows the first GOP is below it.
            let second = ring.packets.firstIndex { $0.isKeyframe && $0.pts > ring.packets[0].pts }!
            let afterFirstGOP = Timestamp(value: ring.stats.end!.value - ring.packets[second].pts, timeBase: ring.packets[0].timeBase)
            #expect(afterFirstGOP < ring.limits.maxDuration)
        }
    }

    @Test func dropsPacketsBeforeTheFirstKeyframe() {
        var ring = RingState()
        let stream = Self.ipp(gops: 2)
        for packet in stream.packets[5...] { ring.append(packet) }
        #expect(ring.stats.evictedPackets == 25)
        #expect(ring.stats.packets == 30)
        #expect(ring.stats.start == Self.t(30))
    }

    @Test func timeCapEvictsWholeGOPs() {
        var ring = RingState(limits: RingLimits(maxDuration: .microseconds(10_000_000), maxBytes: .max))
        for packet in Self.ipp(gops: 20).packets {
            ring.append(packet)
            Self.checkInvariants(ring)
        }
        // 600 frames of 1 s GOPs; a 10 s cap holds the last 10 GOPs (while the newest GOP is still
        // filling, the one before them too: at least 10 s are always there).
        #expect(ring.stats.start == Self.t(300))
        #expect(ring.stats.end == Self.t(600))
        #expect(ring.stats.packets == 300)
        #expect(ring.stats.evictedPackets == 300)
        #expect(ring.stats.span == .microseconds(10_000_000))
    }

    @Test func byteCapEvictsWholeGOPs() {
        // A GOP is 1000 + 29 * 100 = 3900 bytes; 10_000 bytes hold two whole GOPs and part of a third.
        var ring = RingState(limits: RingLimits(maxDuration: .microseconds(3_600_000_000), maxBytes: 10_000))
        for packet in Self.ipp(gops: 6).packets {
            ring.append(packet)
            Self.checkInvariants(ring)
        }
        #expect(ring.stats.bytes == 7_800)
        #expect(ring.stats.keyframes == 2)
        #expect(ring.stats.start == Self.t(120))
    }

    @Test func keepsTwoKeyframesWhateverTheCaps() {
        var ring = RingState(limits: RingLimits(maxDuration: .microseconds(1), maxBytes: 1))
        for (i, packet) in Self.ipp(gops: 5, length: 10).packets.enumerated() {
            ring.append(packet)
            #expect(ring.stats.keyframes == min(i / 10 + 1, 2))
            #expect(ring.packets.first?.isKeyframe == true)
        }
        #expect(ring.stats.start == Self.t(30))
    }

    @Test func capsHoldOnRandomBFrameStreams() {
        for seed in 0..<10 {
            let lengths = (0..<40).map { ($0 * 7 + seed * 3) % 11 + 1 }
            let stream = SyntheticStream.make(gopLengths: lengths, bFrames: seed % 4, timeBase: Self.tb,
                                              duration: { Int64($0 % 3 + 1) }, size: { i, key in key ? 500 : i % 90 + 10 })
            var ring = RingState(limits: RingLimits(maxDuration: .microseconds(2_000_000 + Int64(seed) * 300_000),
                                                    maxBytes: 3_000 + seed * 500))
            for packet in stream.packets {
                ring.append(packet)
                Self.checkInvariants(ring)
            }
            #expect(ring.stats.evictedPackets + ring.stats.packets == stream.packets.count)
            #expect(ring.packets.map(\.pts) == stream.packets.suffix(ring.stats.packets).map(\.pts))
        }
    }

    @Test func snapshotWithoutBFrames() throws {
        var ring = RingState()
        for packet in Self.ipp(gops: 4).packets { ring.append(packet) }
        let packets = try ring.snapshot(from: Self.t(45), to: Self.t(70))
        #expect(packets.map(\.pts) == Array(30..<70))
        let onKeyframe = try ring.snapshot(from: Self.t(60), to: Self.t(61))
        #expect(onKeyframe.map(\.pts) == [60])
        let whole = try ring.snapshot(from: Self.t(0), to: Self.t(120))
        #expect(whole.count == 120)
    }

    @Test(arguments: [(0, 1), (5, 6), (29, 33), (31, 59), (44, 90), (59, 60), (60, 119), (0, 120)])
    func snapshotWithBFramesHasEveryReference(from: Int64, to: Int64) throws {
        let stream = SyntheticStream.make(gopLengths: [30, 30, 30, 30], bFrames: 3, timeBase: Self.tb,
                                          duration: { _ in 1 })
        var ring = RingState()
        for packet in stream.packets { ring.append(packet) }
        let packets = try ring.snapshot(from: Self.t(from), to: Self.t(to))
        let first = try #require(stream.packets.firstIndex { $0.pts == packets[0].pts })
        let held = Set(first..<(first + packets.count))
        #expect(packets[0].isKeyframe)
        #expect(stream.closure(ptsIn: from..<to).isSubset(of: held))
        #expect(packets.last!.pts < to) // nothing past the last frame before `to`
        #expect(packets.map(\.pts) == stream.packets[first..<(first + packets.count)].map(\.pts))
    }

    @Test func binarySearchMatchesLinearScanOnRandomData() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let lengths = (0..<Int.random(in: 2...12, using: &generator)).map { _ in Int.random(in: 1...9, using: &generator) }
            let stream = SyntheticStream.make(gopLengths: lengths, bFrames: Int.random(in: 0...3, using: &generator),
                                              duration: { _ in Int64.random(in: 1...5_000) })
            var ring = RingState()
            for packet in stream.packets { ring.append(packet) }
            let end = stream.packets.map { $0.pts + $0.duration }.max()!
            for _ in 0..<50 {
                let time = Int64.random(in: -10...(end + 10), using: &generator)
                let linear = ring.packets.indices.last { ring.packets[$0].isKeyframe && ring.packets[$0].pts <= time }
                #expect(ring.keyframeSlot(atOrBefore: stream.time(time)).map { ring.keyframeIndices[$0] } == linear)
                let from = Int64.random(in: 0..<end, using: &generator)
                let to = Int64.random(in: (from + 1)...end, using: &generator)
                let packets = try ring.snapshot(from: stream.time(from), to: stream.time(to))
                let start = ring.packets.indices.last { ring.packets[$0].isKeyframe && ring.packets[$0].pts <= from }!
                let last = ring.packets.indices.last { ring.packets[$0].pts < to }!
                #expect(packets.map(\.pts) == ring.packets[start...last].map(\.pts))
            }
        }
    }

    @Test func clearDropsGOPsBeforeTheTime() {
        var ring = RingState()
        for packet in Self.ipp(gops: 4).packets { ring.append(packet) }
        #expect(ring.clear(upTo: Self.t(10)) == 0)
        #expect(ring.clear(upTo: Self.t(75)) == 60)
        #expect(ring.stats.start == Self.t(60))
        #expect(ring.stats.clearedPackets == 60)
        #expect(ring.stats.evictedPackets == 0)
        #expect(ring.clear(upTo: Self.t(1_000)) == 30) // the last GOP always stays
        #expect(ring.stats.packets == 30)
        #expect(ring.packets.first?.isKeyframe == true)
    }

    @Test func snapshotErrorsSayWhatIsHeld() {
        var ring = RingState()
        let empty = #expect(throws: RecError.self) { try ring.snapshot(from: Self.t(0), to: Self.t(1)) }
        #expect(empty?.message.contains("empty") == true)
        for packet in Self.ipp(gops: 4).packets { ring.append(packet) }
        ring.clear(upTo: Self.t(30))
        let outside = #expect(throws: RecError.self) { try ring.snapshot(from: Self.t(0), to: Self.t(60)) }
        #expect(outside?.code == .usage)
        #expect(outside?.message == "0:00.000–0:02.000 is outside the ring, which holds 0:01.000–0:04.000; choose times inside it")
        #expect(throws: RecError.self) { try ring.snapshot(from: Self.t(60), to: Self.t(121)) }
        #expect(throws: RecError.self) { try ring.snapshot(from: Self.t(60), to: Self.t(60)) }
    }

    @Test func discontinuityStartsOver() {
        var ring = RingState()
        for packet in Self.ipp(gops: 2).packets { ring.append(packet) }
        for packet in Self.ipp(gops: 1).packets { ring.append(packet) } // pts back at 0
        #expect(ring.stats.packets == 30)
        #expect(ring.stats.evictedPackets == 60)
        #expect(ring.stats.start == Self.t(0))
    }

    @Test func findsPresentationTimeByCaptureTime() {
        var ring = RingState()
        let stream = SyntheticStream.make(gopLengths: [10, 10], bFrames: 2, timeBase: Self.tb, duration: { _ in 1 })
        for packet in stream.packets { ring.append(packet) }
        // Capture times are pts + 0.5 ms: pts 6 (0.2 s) was captured at 0.2005 s.
        #expect(ring.presentationTime(atCapture: .microseconds(200_500)) == Self.t(6))
        #expect(ring.presentationTime(atCapture: .microseconds(200_501)) == Self.t(7))
        #expect(ring.presentationTime(atCapture: .microseconds(0)) == Self.t(0))
        #expect(ring.presentationTime(atCapture: .microseconds(10_000_000)) == nil)
    }

    @Test func packetRingForwardsToItsState() throws {
        let ring = PacketRing(limits: RingLimits(maxDuration: .microseconds(2_000_000), maxBytes: .max))
        for packet in Self.ipp(gops: 4).packets { ring.append(packet) }
        #expect(ring.stats.start == Self.t(60))
        #expect(try ring.snapshot(from: Self.t(70), to: Self.t(95)).map(\.pts) == Array(60..<95))
        #expect(throws: RecError.self) { try ring.snapshot(from: Self.t(0), to: Self.t(95)) }
        #expect(ring.presentationTime(atCapture: .microseconds(3_000_000)) == Self.t(90))
        #expect(ring.clear(upTo: Self.t(100)) == 30)
        #expect(ring.stats.packets == 30)
    }
}
