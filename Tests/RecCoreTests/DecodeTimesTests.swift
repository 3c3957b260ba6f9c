import RecCore
import Testing

/// Rebuilding decode times for streams whose container (Matroska) stores only presentation times.
@Suite struct DecodeTimesTests {
    static let timeBase = Rational(1, 1000)

    /// Packets in decode order with the given pts (and dts = pts unless given).
    static func packets(pts: [Int64], dts: [Int64]? = nil) -> [EncodedPacket] {
        pts.enumerated().map { i, p in
            EncodedPacket(data: [UInt8(i)], pts: p, dts: dts?[i] ?? p, duration: 40, timeBase: timeBase, isKeyframe: i == 0)
        }
    }

    static func strictlyIncreasingAndNotAfterPTS(_ packets: [EncodedPacket]) -> Bool {
        zip(packets, packets.dropFirst()).allSatisfy { $0.dts < $1.dts } && packets.allSatisfy { $0.dts <= $0.pts }
    }

    @Test func areValid() {
        #expect(DecodeTimes.areValid(Self.packets(pts: [0, 40, 80])))
        #expect(DecodeTimes.areValid(Self.packets(pts: [0, 120, 40, 80], dts: [-40, 0, 40, 80])))
        #expect(!DecodeTimes.areValid(Self.packets(pts: [0, 40], dts: [0, 41])), "dts after pts")
        #expect(!DecodeTimes.areValid(Self.packets(pts: [0, 40, 80], dts: [0, 40, 40])), "dts repeated")
        #expect(!DecodeTimes.areValid(Self.packets(pts: [0, 120, 40, 80])), "dts = pts in a reordered stream")
        #expect(DecodeTimes.areValid([]))
    }

    /// Valid dts are left exactly as they were, even where a rebuild would choose others.
    @Test func validDecodeTimesAreUntouched() {
        let given = Self.packets(pts: [0, 120, 40, 80, 240, 160, 200], dts: [-100, -7, 3, 50, 60, 61, 199])
        var packets = given
        DecodeTimes.repair(&packets)
        #expect(packets.map(\.dts) == given.map(\.dts))
        #expect(packets.map(\.pts) == given.map(\.pts))
    }

    /// I P B B | P B B read from Matroska (dts = pts, the way rec fills missing ones): one frame of
    /// delay, so each packet decodes one frame before the i-th smallest pts.
    @Test func reorderedIPBBGetsOneFrameOfDelay() {
        var packets = Self.packets(pts: [0, 120, 40, 80, 240, 160, 200])
        DecodeTimes.repair(&packets)
        #expect(packets.map(\.dts) == [-40, 0, 40, 80, 120, 160, 200])
        #expect(packets.map(\.pts) == [0, 120, 40, 80, 240, 160, 200], "pts never change")
        #expect(Self.strictlyIncreasingAndNotAfterPTS(packets))
        #expect(DecodeTimes.areValid(packets))
    }

    /// FFmpeg guesses later dts but leaves the first ones missing (rec takes their pts).
    @Test func firstFewMissingThenGuessed() {
        var packets = Self.packets(pts: [0, 120, 40, 80, 240, 160, 200], dts: [0, 120, 0, 40, 80, 120, 160])
        DecodeTimes.repair(&packets)
        #expect(packets.map(\.dts) == [-40, 0, 40, 80, 120, 160, 200])
    }

    /// A b-pyramid (I P B b b: the middle B is a reference) needs two frames of delay.
    @Test func pyramidNeedsTwoFramesOfDelay() {
        var packets = Self.packets(pts: [0, 160, 80, 40, 120])
        DecodeTimes.repair(&packets)
        #expect(packets.map(\.dts) == [-80, -40, 0, 40, 80])
        #expect(Self.strictlyIncreasingAndNotAfterPTS(packets))
    }

    /// No reordering, just broken dts: delay zero, dts become the pts.
    @Test func noReorderingMeansNoDelay() {
        var packets = Self.packets(pts: [1000, 1040, 1080, 1120], dts: [1000, 1100, 1050, 1120])
        DecodeTimes.repair(&packets)
        #expect(packets.map(\.dts) == [1000, 1040, 1080, 1120])
    }

    /// Encoder-like streams with b-pyramids and several GOPs: at a constant frame rate the rebuilt dts
    /// are exactly what the encoder wrote.
    @Test(arguments: [(2, false), (3, true), (7, true)])
    func rebuildsEncoderDecodeTimes(bFrames: Int, pyramid: Bool) {
        let stream = SyntheticStream.make(gopLengths: [12, 12, 9], bFrames: bFrames, pyramid: pyramid)
        var packets = stream.packets
        for i in packets.indices { packets[i].dts = packets[i].pts }
        DecodeTimes.repair(&packets)
        #expect(packets.map(\.dts) == stream.packets.map(\.dts))
        #expect(Self.strictlyIncreasingAndNotAfterPTS(packets))
    }

    /// Variable frame rate: dts are still increasing and never after pts; the frames before the
    /// first pts are spaced by the smallest frame step.
    @Test func variableFrameRate() {
        let stream = SyntheticStream.make(gopLengths: [10, 10], bFrames: 2, pyramid: false,
                                          duration: { $0 % 3 == 0 ? 1500 : 4500 })
        var packets = stream.packets
        for i in packets.indices { packets[i].dts = packets[i].pts }
        DecodeTimes.repair(&packets)
        #expect(Self.strictlyIncreasingAndNotAfterPTS(packets))
        #expect(packets[0].dts == -1500, "one frame of delay, one smallest step before the first pts")
        #expect(Array(packets.map(\.dts).dropFirst()) == Array(stream.allPTS.dropLast()))
    }

    @Test func emptyAndSinglePacket() {
        var none: [EncodedPacket] = []
        DecodeTimes.repair(&none)
        #expect(none.isEmpty)
        var one = Self.packets(pts: [500], dts: [900])
        DecodeTimes.repair(&one)
        #expect(one.map(\.dts) == [500])
    }
}
