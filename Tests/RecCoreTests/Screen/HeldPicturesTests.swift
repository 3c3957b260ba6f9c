import RecCore
import Testing

/// Issue 43: a range of a paced screen starts with the picture on screen at its start and lasts
/// what was asked. A still screen sends a picture a second (rec's repeats); a change at 2.4 s is
/// captured then. Cut by the planner as a save cuts the ring.
@Suite struct HeldPicturesTests {
    static let tb = Rational(1, 90_000)

    /// Pictures (keyframes, no B-frames) at these seconds, each lasting until the next.
    static func pictures(_ seconds: [Double], end: Double) -> [EncodedPacket] {
        seconds.enumerated().map { i, t in
            let next = i + 1 < seconds.count ? seconds[i + 1] : end
            let pts = Int64((t * 90_000).rounded())
            return EncodedPacket(data: [UInt8(i)], pts: pts, dts: pts, duration: Int64((next * 90_000).rounded()) - pts,
                                 timeBase: tb, isKeyframe: i % 2 == 0, captureTime: .microseconds(Int64(t * 1_000_000)))
        }
    }

    @Test(arguments: [CutPlan.Strategy.editList, .spliceReencode])
    func aRangeStartsWithThePictureOnScreenAndLastsWhatWasAsked(_ strategy: CutPlan.Strategy) throws {
        let still = Self.pictures([0, 1, 2, 2.4, 3.4, 4.4, 5.4], end: 6.4)
        let (from, to) = (Timestamp(seconds: 1.5), Timestamp(seconds: 3.9))
        let held = HeldPictures.held(still, from: from, to: to)
        let plan = try CutPlanner.plan(packets: held.map(PacketTiming.init), timeBase: Self.tb, from: from, to: to, strategy: strategy)
        // The picture of 1 s (on screen from 1 s to 2 s) from 1.5 s, the one of 2 s, the change
        // at 2.4 s, and the repeat of 3.4 s held to 3.9 s: 2.4 s, as asked.
        #expect(plan.firstPresentedPTS == 135_000 && plan.presentedEndPTS == 351_000, "\(plan.presentedStart)–\(plan.presentedEnd)")
        #expect(plan.presentedFrames == 4)
        let shown = held.filter { $0.pts >= plan.firstPresentedPTS && $0.pts < plan.presentedEndPTS }
        #expect(shown.map { $0.data[0] } == [1, 2, 3, 4])
        #expect(shown.map(\.pts) == [135_000, 180_000, 216_000, 306_000])
        #expect(shown.map(\.duration) == [45_000, 36_000, 90_000, 45_000])
        // Decode order and times are kept: each picture still decodes after the one before.
        #expect(zip(held, held.dropFirst()).allSatisfy { $0.dts < $1.dts && $0.pts < $1.pts })
    }

    @Test func withoutHeldPicturesTheSameRangeStartsOnTheNextCapture() throws {
        // What a save did before (the "2 frames, 0:05–0:07 of requested 0:04–0:06").
        let still = Self.pictures([0, 1, 2, 3, 4, 5, 6, 7], end: 8)
        let plan = try CutPlanner.plan(packets: still.map(PacketTiming.init), timeBase: Self.tb, from: Timestamp(seconds: 4.5),
                                       to: Timestamp(seconds: 6.5), strategy: .editList)
        #expect(plan.presentedStart.seconds == 5 && plan.presentedEnd.seconds == 7)
        let held = HeldPictures.held(still, from: Timestamp(seconds: 4.5), to: Timestamp(seconds: 6.5))
        let exact = try CutPlanner.plan(packets: held.map(PacketTiming.init), timeBase: Self.tb, from: Timestamp(seconds: 4.5),
                                        to: Timestamp(seconds: 6.5), strategy: .editList)
        #expect(exact.presentedStart.seconds == 4.5 && exact.presentedEnd.seconds == 6.5)
        #expect(exact.presentedFrames == 3)
    }

    @Test func aRangeOnPictureBoundariesIsUnchanged() {
        let still = Self.pictures([0, 1, 2, 3], end: 4)
        let held = HeldPictures.held(still, from: Timestamp(seconds: 1), to: Timestamp(seconds: 3))
        #expect(held.map(\.pts) == still.map(\.pts) && held.map(\.duration) == still.map(\.duration))
    }
}
