import Testing
@testable import RecCore

/// Named cases with their exact plans; `CutPlannerTests` checks every range by simulation.
@Suite struct CutPlanCaseTests {
    /// IPPP, 3 GOPs of 10 frames, 3000 ticks (1/30 s) each: packet i has pts 3000 * i.
    let ippp = SyntheticStream.make(gopLengths: [10, 10, 10])
    /// IBBP with pyramid, GOPs of 12; in decode order a GOP is I0 P3 B1 B2 P6 B4 B5 P9 B7 B8 P11 B10.
    let ibbp = SyntheticStream.make(gopLengths: [12, 12, 12], bFrames: 2)

    func frames(_ n: Int64) -> Timestamp { Timestamp(value: 3_000 * n, timeBase: Rational(1, 90_000)) }

    @Test func editListHidesThePreroll() throws {
        let plan = try CutPlanner.plan(packets: ippp.packets, from: frames(12), to: frames(25), strategy: .editList)
        #expect(plan.segments == [.copy(10..<25)])
        #expect(plan.prerollFrames == 2)
        #expect(plan.trailingHiddenFrames == 0)
        #expect(plan.keyframesUsed == [30_000])
        #expect(plan.firstPresentedPTS == 36_000)
        #expect(plan.presentedEndPTS == 75_000)
        #expect(plan.presentedFrames == 13)
    }

    @Test func spliceReencodesUpToTheNextKeyframe() throws {
        let plan = try CutPlanner.plan(packets: ippp.packets, from: frames(12), to: frames(25), strategy: .spliceReencode)
        #expect(plan.segments == [.reencode(decode: 10..<20, presentPTS: 36_000..<60_000), .copy(20..<25)])
        #expect(plan.reencodedFrames == 8)
        #expect(plan.keyframesUsed == [60_000])
    }

    @Test(arguments: [CutPlan.Strategy.editList, .spliceReencode])
    func startingOnAKeyframeCopiesOnly(strategy: CutPlan.Strategy) throws {
        let plan = try CutPlanner.plan(packets: ippp.packets, from: frames(10), to: frames(30), strategy: strategy)
        #expect(plan.segments == [.copy(10..<30)])
        #expect(plan.reencodedFrames == 0 && plan.prerollFrames == 0)
    }

    @Test func oneFrameBeforeAKeyframe() throws {
        let plan = try CutPlanner.plan(packets: ippp.packets, from: frames(9), to: frames(11), strategy: .spliceReencode)
        #expect(plan.segments == [.reencode(decode: 0..<10, presentPTS: 27_000..<30_000), .copy(10..<11)])
        #expect(plan.presentedFrames == 2)
    }

    @Test func bFramesNeedTheLaterDecodedPFrame() throws {
        // Frames 0–4: B4 is decoded after P6, which it references.
        let plan = try CutPlanner.plan(packets: ibbp.packets, from: frames(0), to: frames(5), strategy: .editList)
        #expect(plan.segments == [.copy(0..<6)]) // I0 P3 B1 B2 P6 B4
        #expect(plan.trailingHiddenFrames == 1)
        #expect(plan.presentedEndPTS == 15_000)
    }

    @Test func spliceReencodesOnlyTheFramesThatFollowAFrameAtTheEnd() throws {
        let plan = try CutPlanner.plan(packets: ibbp.packets, from: frames(12), to: frames(29), strategy: .spliceReencode)
        // GOP 2 is copied whole, and GOP 3 up to P30 (shown at `to`): frames 24–27 decode
        // before it. B28 is decoded after P30 and may reference it: only that frame is re-encoded.
        #expect(plan.segments == [.copy(12..<28), .reencode(decode: 24..<30, presentPTS: 84_000..<87_000)])
        #expect(plan.reencodedFrames == 1)
        let whole = try CutPlanner.plan(packets: ibbp.packets, from: frames(12), to: frames(24), strategy: .spliceReencode)
        #expect(whole.segments == [.copy(12..<24)])
    }

    /// Open GOP (x265's default): GOP 2's keyframe is frame 14 (packet 12); frames 12 and 13 are
    /// decoded after it (packets 13, 14) and reference frame 11 of GOP 1.
    @Test func openGOPLeadingPicturesAreReencodedWithTheHead() throws {
        let open = SyntheticStream.make(gopLengths: [12, 12, 12], bFrames: 2, openGOP: true)
        let plan = try CutPlanner.plan(packets: open.packets, from: frames(5), to: frames(20), strategy: .spliceReencode)
        #expect(plan.segments == [.reencode(decode: 0..<15, presentPTS: 15_000..<42_000), .copy(12..<13),
                                  .copy(15..<18), .reencode(decode: 12..<21, presentPTS: 54_000..<60_000)])
        #expect(plan.presentedFrames == 15)
        #expect(plan.reencodedFrames == 11)
        #expect(plan.keyframesUsed == [42_000])
    }

    @Test func headAndTailInOneGOPMerge() throws {
        let plan = try CutPlanner.plan(packets: ibbp.packets, from: frames(13), to: frames(17), strategy: .spliceReencode)
        #expect(plan.segments == [.reencode(decode: 12..<18, presentPTS: 39_000..<51_000)])
        #expect(plan.reencodedFrames == 4)
    }

    @Test(arguments: [CutPlan.Strategy.editList, .spliceReencode])
    func intraOnlyNeverReencodes(strategy: CutPlan.Strategy) throws {
        let stream = SyntheticStream.make(gopLengths: Array(repeating: 1, count: 10))
        let plan = try CutPlanner.plan(packets: stream.packets, from: frames(3), to: frames(7), strategy: strategy)
        #expect(plan.segments == [.copy(3..<7)])
        #expect(plan.keyframesUsed == [9_000])
    }

    @Test func fromBetweenTwoFrames() throws {
        let from = Timestamp.microseconds(333_334) // just after frame 10 at 1/3 s
        let plan = try CutPlanner.plan(packets: ippp.packets, from: from, to: frames(30), strategy: .editList)
        #expect(plan.firstPresentedPTS == 33_000)
        #expect(plan.prerollFrames == 1)
    }

    @Test func wholeStreamAndOneFrame() throws {
        let whole = try CutPlanner.plan(packets: ibbp.packets, from: frames(0), to: frames(36), strategy: .spliceReencode)
        #expect(whole.segments == [.copy(0..<36)])
        #expect(whole.keyframesUsed == [0, ])
        let one = try CutPlanner.plan(packets: ibbp.packets, from: frames(20), to: frames(21), strategy: .editList)
        #expect(one.presentedFrames == 1)
        #expect(one.firstPresentedPTS == 60_000 && one.presentedEndPTS == 63_000)
    }

    @Test func errorsSayWhatIsAvailable() {
        let reversed = #expect(throws: RecError.self) {
            try CutPlanner.plan(packets: ippp.packets, from: frames(5), to: frames(5), strategy: .editList)
        }
        #expect(reversed?.message.contains("is not before the end") == true)
        let outside = #expect(throws: RecError.self) {
            try CutPlanner.plan(packets: ippp.packets, from: frames(5), to: frames(31), strategy: .editList)
        }
        #expect(outside?.code == .usage)
        #expect(outside?.message == "0:00.166–0:01.033 is outside the stream, which holds 0:00.000–0:01.000; choose times inside it")
        let empty = #expect(throws: RecError.self) {
            try CutPlanner.plan(packets: ippp.packets, from: .microseconds(340_000), to: .microseconds(360_000), strategy: .editList)
        }
        #expect(empty?.message == "no frame starts in 0:00.340–0:00.360; the nearest frames start at 0:00.333 and 0:00.366; widen the range")
        let none = #expect(throws: RecError.self) {
            try CutPlanner.plan(packets: [EncodedPacket](), from: .zero, to: frames(1), strategy: .editList)
        }
        #expect(none?.code == .usage)
    }

    @Test func summaryForDryRun() throws {
        let plan = try CutPlanner.plan(packets: ippp.packets, from: frames(12), to: frames(25), strategy: .spliceReencode)
        #expect(plan.summary == """
            requested   0:00.400–0:00.833
            presented   0:00.400–0:00.833 (13 frames)
            keyframes   0:00.666
            re-encoded  8 frames
            re-encode   0:00.400–0:00.666 decoding packets 10–19
            copy        packets 20–24 from the keyframe at 0:00.666
            """)
        let edit = try CutPlanner.plan(packets: ibbp.packets, from: frames(13), to: frames(17), mode: .keyframe,
                                       strategy: .editList)
        #expect(edit.summary.contains("start      moved back to the keyframe at 0:00.400 (--keyframe)"))
        #expect(edit.summary.contains("trailing   1 frame copied as references and hidden"))
    }
}
