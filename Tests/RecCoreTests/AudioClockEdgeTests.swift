import RecCore
import Testing

/// The clock model's edges: the first chunk, empty chunks, sound before the first picture, huge
/// jumps and garbage, none of which may trap.
@Suite struct AudioClockEdgeTests {
    static func at(_ seconds: Double) -> Timestamp { Timestamp(seconds: seconds) }

    @Test func theFirstChunkStartsAtItsObservedTime() {
        var clock = AudioClock(outputRate: 48_000, inputRate: 44_100)
        let first = clock.place(observed: Self.at(0.05), samples: 441, position: nil)
        #expect(first == AudioPlacement(start: 2_400))
        let second = clock.place(observed: Self.at(0.06), samples: 441, position: 2_880)
        #expect(second == .asIs, "a chunk exactly where it belongs is placed as it is")
        #expect(clock.driftPPM == nil)
    }

    @Test func soundBeforeTheFirstPictureIsDropped() {
        var clock = AudioClock(outputRate: 48_000, inputRate: 48_000)
        #expect(clock.place(observed: Self.at(-1), samples: 1_024, position: nil) == AudioPlacement(drop: 1_024),
                "a chunk wholly before session time 0 is dropped and starts nothing")
        let first = clock.place(observed: Self.at(-0.01), samples: 1_024, position: nil)
        #expect(first == AudioPlacement(drop: 480, start: 0))
        #expect(clock.droppedSamples == 0, "trimming the start is not an overlap")
    }

    /// A chunk with no samples changes nothing: the placements around it are the same as
    /// without it.
    @Test func anEmptyChunkChangesNothing() {
        var with = AudioClock(outputRate: 48_000, inputRate: 48_000)
        var without = with
        #expect(with.place(observed: Self.at(0), samples: 0, position: nil) == .asIs)
        #expect(with.place(observed: Self.at(0), samples: -3, position: nil) == .asIs)
        var position: Int64? = nil
        for i in 0..<200 {
            let time = Self.at(0.1 + Double(i) * 0.021 + (i % 3 == 0 ? 0.004 : -0.002))
            if i == 50 { #expect(with.place(observed: Self.at(9), samples: 0, position: position) == .asIs) }
            let a = with.place(observed: time, samples: 1_008, position: position)
            let b = without.place(observed: time, samples: 1_008, position: position)
            #expect(a == b)
            position = (a.start ?? position ?? 0) + 1_008 + Int64(a.compensation + a.silence)
        }
    }

    /// The laptop slept for 5 minutes while the session clock ran: 5 minutes of silence, one
    /// gap, and sync after it.
    @Test func aSuspendIsFilledWithSilence() throws {
        let device = SimulatedDevice(skew: 0.001, seconds: 400, gapAt: 60.3, gapSeconds: 300, seed: 8)
        let run = ClockRun(device)
        let gap = try #require(run.silences.first)
        run.report("400 s, +0.1 %, 5 min suspend", 400, except: run.unconfirmed)
        #expect(run.silences.count == 1 && run.clock.gaps == 1 && run.clock.clockBreaks == 0)
        #expect(abs(Double(gap.samples) - 300 * 48_000) <= Double(device.chunk))
        #expect(run.clock.gapSamples == Int64(gap.samples))
        #expect(run.worst(2...400, except: run.unconfirmed) <= AudioClockTests.tolerance)
    }

    /// A jump beyond `maximumJump` (2 hours) is a broken timestamp: no silence for it, the sound
    /// goes on where it was, and the line follows the new times.
    @Test func aJumpBeyondTheMaximumIsAClockBreak() {
        let run = ClockRun(SimulatedDevice(seconds: 7_260, gapAt: 30.3, gapSeconds: 7_200, seed: 9))
        #expect(run.clock.clockBreaks == 1)
        #expect(run.silences.isEmpty && run.dropped == 0)
        #expect(run.maximumStretch <= 0.005)
        #expect(run.worst(2...30) <= AudioClockTests.tolerance)
    }

    /// The device's time goes back by a second: what overlaps is dropped, then sync holds.
    @Test func timeGoingBackIsDropped() {
        let device = SimulatedDevice(skew: -0.001, seconds: 60, gapAt: 30.3, gapSeconds: -1, seed: 10)
        let run = ClockRun(device)
        run.report("1 min, -0.1 %, time back 1 s", 60)
        #expect(run.silences.isEmpty)
        #expect(abs(Double(run.dropped) - 48_000) <= Double(device.chunk))
        #expect(run.clock.droppedSamples == run.dropped)
        #expect(run.worst(32...60) <= AudioClockTests.tolerance)
    }

    /// Observed times at the ends of Int64, in any time base, and positions at the ends of
    /// Int64: placements stay within their bounds and nothing traps.
    @Test func garbageNeverTraps() {
        let garbage = [Timestamp(value: .max, timeBase: .microseconds), Timestamp(value: .min, timeBase: .microseconds),
                       Timestamp(value: .max, timeBase: Rational(1, 1)), Timestamp(value: -1, timeBase: Rational(3_600, 1))]
        var random = SeededGenerator(seed: 11)
        for policy in [AudioClock.Policy.standard, .uncorrected] {
            var clock = AudioClock(outputRate: 48_000, inputRate: 44_100, policy: policy)
            var position: Int64?
            for i in 0..<2_000 {
                let observed = i % 7 < 3 ? garbage[(i / 7) % garbage.count] : Self.at(Double(i) * 0.01)
                let samples = Int.random(in: 0...2_048, using: &random)
                let placement = clock.place(observed: observed, samples: samples, position: position)
                #expect(placement.silence >= 0 && (0...max(0, samples)).contains(placement.drop))
                #expect(abs(placement.compensation) <= placement.compensationDistance / 200)
                if let start = placement.start { position = start }
                if i % 500 == 499 { position = [Int64.max, .min, 0, nil][(i / 500) % 4] }
                position = position.map { $0 &+ Int64(samples) }
            }
            _ = clock.driftPPM
        }
        var odd = AudioClock(outputRate: 0, inputRate: -5)
        _ = odd.place(observed: Self.at(1), samples: 100, position: nil)
        _ = odd.place(observed: Self.at(2), samples: 100, position: 100)
    }
}
