import RecCore
import Testing

/// The clock model against simulated sound cards: every whole-second click must land within
/// 10 ms of its second on the output timeline, however the device's clock drifts.
@Suite struct AudioClockTests {
    static let tolerance = 0.010

    /// 0.2 % fast for 10 minutes, 1024-sample chunks, jitter and late chunks: in sync at the
    /// start, middle and end, with compensation alone.
    @Test func tenMinutesOfAFastDeviceStayInSync() throws {
        let run = ClockRun(SimulatedDevice(skew: 0.002, seconds: 600))
        run.report("10 min, +0.2 %, 1024 @ 48 kHz", 600)
        #expect(run.worst(2...60) <= Self.tolerance)
        #expect(run.worst(270...330) <= Self.tolerance)
        #expect(run.worst(540...600) <= Self.tolerance)
        #expect(run.worst(2...600) <= Self.tolerance)
        #expect(run.clicks.count >= 599)
        #expect(try #require(run.worstDriftError) <= 50)
        #expect(run.maximumStretch <= 0.005 && !run.shortDistance)
        #expect(run.silences.isEmpty && run.dropped == 0, "jitter alone is never fixed by silence or drops")
    }

    /// The same run without correction is off by more than a second at the end: the test above
    /// can fail.
    @Test func withoutCorrectionTheSameRunDrifts() throws {
        let run = ClockRun(SimulatedDevice(skew: 0.002, seconds: 600), policy: .uncorrected)
        run.report("10 min, +0.2 %, uncorrected", 600)
        let last = try #require(run.lastClick)
        #expect(last.second >= 599)
        #expect(abs(last.error) > 1.0)
        #expect(run.maximumStretch == 0 && run.silences.isEmpty)
    }

    /// An hour of a device 0.1 % slow or fast, 441-sample chunks of 44.1 kHz resampled to 48 kHz.
    @Test(arguments: [-0.001, 0.001])
    func anHourAt44kStaysInSync(skew: Double) throws {
        let device = SimulatedDevice(inputRate: 44_100, chunk: 441, skew: skew, seconds: 3_600, seed: skew < 0 ? 2 : 3)
        let run = ClockRun(device)
        run.report("1 h, \(skew * 100) %, 441 @ 44.1 kHz → 48 kHz", 3_600)
        #expect(run.worst(2...3_600) <= Self.tolerance)
        #expect(run.clicks.count >= 3_599)
        #expect(try #require(run.worstDriftError) <= 50)
        #expect(run.maximumStretch <= 0.005 && !run.shortDistance)
        #expect(run.silences.isEmpty && run.dropped == 0)
    }

    /// An overrun loses 200 ms: one gap, filled with silence within a chunk of its length, and
    /// sync holds on both sides of it. Only the chunks that arrive first after the loss, placed
    /// before the clock could tell a gap from a stall (30 ms of them), land early.
    @Test func anOverrunIsFilledWithSilence() throws {
        let device = SimulatedDevice(skew: 0.002, seconds: 120, gapAt: 60.3, gapSeconds: 0.2, seed: 4)
        let run = ClockRun(device)
        let gap = try #require(run.silences.first)
        run.report("2 min, +0.2 %, 200 ms overrun", 120, except: run.unconfirmed)
        #expect(run.silences.count == 1 && run.clock.gaps == 1)
        #expect(abs(Double(gap.samples) - 0.2 * 48_000) <= Double(device.chunk))
        #expect(run.unconfirmed.count <= 3)
        #expect(run.dropped == 0)
        #expect(run.worst(2...120, except: run.unconfirmed) <= Self.tolerance)
    }

    /// Without correction a gap is still filled.
    @Test func withoutCorrectionGapsAreStillFilled() throws {
        let device = SimulatedDevice(seconds: 120, gapAt: 60.3, gapSeconds: 0.2, seed: 4)
        let run = ClockRun(device, policy: .uncorrected)
        let gap = try #require(run.silences.first)
        #expect(run.silences.count == 1)
        #expect(abs(Double(gap.samples) - 0.2 * 48_000) <= Double(device.chunk))
        #expect(run.worst(62...120, except: run.unconfirmed) <= Self.tolerance, "no skew: the sample count alone keeps sync")
    }

    /// A step under the gap threshold (60 ms lost) is corrected by compensation, without silence,
    /// at no more than the cap: back within 10 ms in 60 ms / 0.5 % = 12 s and a little more.
    @Test func aSmallStepIsCorrectedWithoutSilence() {
        let run = ClockRun(SimulatedDevice(skew: 0.002, seconds: 120, gapAt: 40.3, gapSeconds: 0.06, seed: 5))
        print("AudioClock 2 min, +0.2 %, 60 ms lost at 40.3 s: worst click error 41–52 s \(ClockRun.ms(run.worst(41...52))), "
              + "from 60 s \(ClockRun.ms(run.worst(60...120)))")
        #expect(run.silences.isEmpty && run.dropped == 0)
        #expect(run.worst(2...40) <= Self.tolerance)
        #expect(run.worst(41...52) > Self.tolerance, "a 60 ms error is not corrected at once")
        #expect(run.worst(60...120) <= Self.tolerance)
        #expect(run.maximumStretch <= 0.005)
    }

    /// Stalls of 150 ms (beyond the gap threshold) now and then: late chunks, not gaps.
    @Test func longStallsAreNotGaps() {
        let run = ClockRun(SimulatedDevice(skew: -0.002, seconds: 120, lateEvery: 300, lateBy: 0.15, seed: 6))
        run.report("2 min, -0.2 %, 150 ms stalls", 120)
        #expect(run.silences.isEmpty && run.dropped == 0)
        #expect(run.worst(2...120) <= Self.tolerance)
    }

    /// Chunks of 64 samples are too short for one sample of compensation within the cap: it is
    /// spread over more than the chunk (the stretch stays at the cap) and sync holds.
    @Test func tinyChunksSpreadCompensationFurther() throws {
        let run = ClockRun(SimulatedDevice(chunk: 64, skew: 0.002, seconds: 120, seed: 7))
        run.report("2 min, +0.2 %, 64 @ 48 kHz", 120)
        #expect(run.worst(2...120) <= Self.tolerance)
        #expect(run.maximumStretch <= 0.005)
        #expect(run.silences.isEmpty && run.dropped == 0)
    }
}
