import RecCore
import Testing

/// Presentation durations for packets that arrive in decode order without them.
@Suite struct DurationFillerTests {
    static let timeBase = Rational(1, 1000)

    static func packets(pts: [Int64], durations: [Int64]? = nil) -> [EncodedPacket] {
        pts.enumerated().map { i, p in
            EncodedPacket(data: [UInt8(truncatingIfNeeded: i)], pts: p, dts: Int64(i), duration: durations?[i] ?? 0,
                          timeBase: timeBase, isKeyframe: i == 0)
        }
    }

    /// Pushes everything, then finishes; returns what came out and how many came out of each push.
    static func fill(_ packets: [EncodedPacket], depth: Int = 32) -> (out: [EncodedPacket], perPush: [Int]) {
        var filler = DurationFiller(depth: depth)
        var out: [EncodedPacket] = []
        var perPush: [Int] = []
        for p in packets {
            let ready = filler.push(p)
            perPush.append(ready.count)
            out += ready
        }
        return (out + filler.finish(), perPush)
    }

    /// Packets that pass (their durations stated, nothing held) go on at once; a last packet
    /// without a duration still lasts as long as the one before it.
    @Test func packetsWithDurationsPassAndTheLastTakesThePreviousOnes() {
        var filler = DurationFiller(depth: 4)
        let input = Self.packets(pts: [0, 21, 42, 63], durations: [21, 21, 21, 0])
        let passed = input.prefix(3).map { filler.passes($0) }
        let last = filler.passes(input[3])
        let ready = filler.push(input[3])
        let finished = filler.finish()
        #expect(passed == [true, true, true])
        #expect(!last, "no duration: it waits")
        #expect(ready.isEmpty)
        #expect(finished.map(\.duration) == [21])
        var holding = DurationFiller(depth: 4)
        let held = holding.push(Self.packets(pts: [0])[0])
        let behind = holding.passes(input[1])
        #expect(held.isEmpty)
        #expect(!behind, "behind a held packet, a packet waits its turn")
    }

    @Test func constantRateWithoutReordering() {
        let (out, _) = Self.fill(Self.packets(pts: [0, 33, 66, 99, 132]))
        #expect(out.map(\.pts) == [0, 33, 66, 99, 132])
        #expect(out.map(\.duration) == [33, 33, 33, 33, 33], "the last lasts as long as the one before")
    }

    /// Decode-order B-frame pyramids of several GOPs: every frame lasts until the next presented one,
    /// and packets leave in the order they came.
    @Test(arguments: [(0, false), (2, false), (3, true), (7, true)])
    func pyramidsAtConstantRate(bFrames: Int, pyramid: Bool) {
        let stream = SyntheticStream.make(gopLengths: [12, 12, 9], bFrames: bFrames, pyramid: pyramid)
        var input = stream.packets
        for i in input.indices { input[i].duration = 0 }
        let (out, _) = Self.fill(input)
        #expect(out.map(\.dts) == stream.packets.map(\.dts))
        #expect(out.map(\.duration) == stream.packets.map(\.duration))
    }

    /// Variable frame rate with reordering: each frame lasts until the next one in presentation order.
    @Test func variableFrameRateWithBFrames() throws {
        let stream = SyntheticStream.make(gopLengths: [10, 10], bFrames: 3, pyramid: true,
                                          duration: { [1000, 500, 2500, 1500][$0 % 4] })
        var input = stream.packets
        for i in input.indices { input[i].duration = 0 }
        let (out, _) = Self.fill(input)
        let lastPTS = try #require(stream.allPTS.last)
        for (got, want) in zip(out, stream.packets) where want.pts != lastPTS {
            #expect(got.duration == want.duration, "frame at \(want.pts)")
        }
    }

    /// The doc: "The last frame lasts as long as the one before it". In a reordered stream the last
    /// presented frame is decoded before the B-frames preceding it, so "before it" should mean in
    /// presentation order.
    @Test func lastPresentedFrameOfAReorderedVariableRateStream() {
        // I0 P4000 B1000 B2000 in decode order; frames last 1000, 1000, 2000 before the last one.
        let (out, _) = Self.fill(Self.packets(pts: [0, 4000, 1000, 2000]))
        #expect(out.map(\.duration)[0] == 1000)
        #expect(out.map(\.duration)[2] == 1000)
        #expect(out.map(\.duration)[3] == 2000)
        #expect(out.map(\.duration)[1] == 2000)
    }

    @Test func durationsAlreadyThereAreKept() {
        let (out, _) = Self.fill(Self.packets(pts: [0, 40, 80, 120], durations: [40, 0, 7, 0]))
        #expect(out.map(\.duration) == [40, 40, 7, 7], "a given 7 stays; the last takes the 7 before it")
    }

    @Test func singlePacketHasNothingToGoBy() {
        let (out, _) = Self.fill(Self.packets(pts: [500]))
        #expect(out.map(\.duration) == [0])
        let (given, _) = Self.fill(Self.packets(pts: [500], durations: [33]))
        #expect(given.map(\.duration) == [33])
    }

    /// The window holds `depth` packets: nothing comes out until it is full, then one per push.
    @Test(arguments: [1, 3, 8])
    func windowReleasesOneAtATimeOnceFull(depth: Int) {
        let (out, perPush) = Self.fill(Self.packets(pts: (0..<20).map { Int64($0) * 40 }), depth: depth)
        #expect(perPush == Array(repeating: 0, count: depth) + Array(repeating: 1, count: 20 - depth))
        #expect(out.count == 20)
        #expect(out.allSatisfy { $0.duration == 40 })
    }

    /// A window shallower than the reordering releases a frame before its successor arrives: I0 P2
    /// B1 with depth 1 gives I0 the gap to P2 (P2, the last, then takes the gap from B1, which it
    /// has seen by then). Depth 2 sees B1 in time.
    @Test func windowMustCoverTheReordering() {
        let input = Self.packets(pts: [0, 2000, 1000])
        #expect(Self.fill(input, depth: 1).out.map(\.duration) == [2000, 1000, 1000])
        #expect(Self.fill(input, depth: 2).out.map(\.duration) == [1000, 1000, 1000])
    }

    /// Long streams: the memory of recent pts is trimmed without losing a successor. (An anchor's
    /// successor, the first B of the next group, comes 6 packets after it here; depth 8 covers that.)
    @Test func longStreamKeepsFindingSuccessors() {
        let stream = SyntheticStream.make(gopLengths: Array(repeating: 16, count: 30), bFrames: 3, pyramid: true)
        var input = stream.packets
        for i in input.indices { input[i].duration = 0 }
        let (out, _) = Self.fill(input, depth: 8)
        #expect(out.count == input.count)
        #expect(out.allSatisfy { $0.duration == 3000 })
    }

    /// An encoder's frames are presented in order before their packets come out: a packet goes on
    /// as soon as the frame after its own is presented, with the gap between them, whatever the
    /// window's depth.
    @Test func presentedFramesReleaseEachPacketOnceTheNextFrameIsIn() {
        var filler = DurationFiller()
        #expect(filler.present(0).isEmpty)
        #expect(filler.push(Self.packets(pts: [0])[0]).isEmpty, "its frame's successor is not in yet")
        let first = filler.present(20)
        #expect(first.map(\.pts) == [0] && first.map(\.duration) == [20])
        #expect(filler.push(Self.packets(pts: [20])[0]).isEmpty)
        let second = filler.present(70)
        #expect(second.map(\.duration) == [50])
        #expect(filler.push(Self.packets(pts: [70])[0]).isEmpty)
        #expect(filler.finish(lone: 33).map(\.duration) == [50], "the last lasts as long as the one before it")
    }

    /// Reordered packets (I0 P60 B10 B30, variable rate) keep their decode order and take the gaps
    /// of their frames, not of their neighbours in the stream; an encoder's own guess gives way.
    @Test func presentedFramesWithReordering() {
        var filler = DurationFiller()
        var out: [EncodedPacket] = []
        for pts: Int64 in [0, 10, 30, 60] { out += filler.present(pts) }
        for p in Self.packets(pts: [0, 60, 10, 30], durations: [1, 1, 1, 1]) { out += filler.push(p) }
        out += filler.finish(lone: 33)
        #expect(out.map(\.pts) == [0, 60, 10, 30])
        #expect(out.map(\.duration) == [10, 30, 20, 30])
    }

    /// One frame alone has no neighbour to go by: it lasts what the caller says one frame lasts.
    @Test func aLoneFrameLastsWhatFinishSays() {
        var filler = DurationFiller()
        _ = filler.present(500)
        _ = filler.push(Self.packets(pts: [500])[0])
        #expect(filler.finish(lone: 40).map(\.duration) == [40])
    }
}
