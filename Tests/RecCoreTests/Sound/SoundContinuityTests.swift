import RecCore
import Testing

/// How a re-encoded stream keeps its packets' timeline: lost packets become gaps of their own
/// length, overlaps are dropped, rounding jitter and a slow slew are absorbed without drift. A
/// simulated pipeline carries out each placement as `AudioPipeline` does (silence, drop, the
/// compensation over its distance). Pure.
@Suite struct SoundContinuityTests {
    /// A pipeline's output position and what the placements did to it.
    struct Simulation {
        var continuity: SoundContinuity
        /// Where the next output sample lands, exactly.
        var position: Double
        /// Largest |landing − stated time| of any run's first kept sample, in output samples,
        /// from `watchFrom` (output samples) on.
        var worst = 0.0
        var watchFrom = 0.0
        var placements: [AudioPlacement] = []
        var started = false

        init(inputRate: Int, outputRate: Int) {
            continuity = SoundContinuity(inputRate: inputRate, outputRate: outputRate)
            position = 0
        }

        var ratio: Double { Double(continuity.outputRate) / Double(continuity.inputRate) }

        /// The first run starts the pipeline at its time, as `SoundTranscoder` does; later ones
        /// are placed.
        mutating func feed(start: Int64?, samples: Int) {
            guard started else {
                position = Double(start ?? 0) + Double(samples) * ratio
                started = true
                return
            }
            let p = continuity.place(start: start, samples: samples, position: Int64(position.rounded()))
            placements.append(p)
            position += Double(p.silence)
            let kept = samples - p.drop
            if let start, kept > 0, position >= watchFrom {
                worst = max(worst, abs(position - (Double(start) + Double(p.drop) * ratio)))
            }
            let out = Double(kept) * ratio
            let applied = p.compensationDistance > 0 ? Double(p.compensation) * min(1, out / Double(p.compensationDistance)) : 0
            position += out + applied
        }
    }

    @Test func exactTimesNeedNothing() {
        var s = Simulation(inputRate: 8_000, outputRate: 48_000)
        for i in 0..<500 { s.feed(start: Int64(i) * 960, samples: 160) }
        #expect(s.placements.allSatisfy { $0 == .asIs })
        #expect(s.position == 500 * 960)
    }

    /// One lost 20 ms packet of G.711, then ten: silence of exactly 20 and 200 ms, and the runs
    /// after them land on their times.
    @Test func lostPacketsAreGapsOfTheirOwnLength() {
        var s = Simulation(inputRate: 8_000, outputRate: 48_000)
        let present = (0..<300).filter { $0 != 100 && !(200..<210).contains($0) }
        for i in present { s.feed(start: Int64(i) * 960, samples: 160) }
        #expect(s.placements.map(\.silence).filter { $0 > 0 } == [960, 9_600])
        #expect(s.continuity.gaps == 2 && s.continuity.gapSamples == 10_560)
        #expect(s.placements.allSatisfy { $0.drop == 0 && $0.compensation == 0 })
        #expect(s.worst == 0 && s.position == 300 * 960)
    }

    /// A packet sent twice is dropped whole; a run that starts 120 of its 160 samples early keeps
    /// only its last 40.
    @Test func overlapsBeyondHalfARunAreDropped() {
        var s = Simulation(inputRate: 8_000, outputRate: 48_000)
        s.feed(start: 0, samples: 160)
        s.feed(start: 960, samples: 160)
        s.feed(start: 960, samples: 160)
        #expect(s.placements.last == AudioPlacement(drop: 160))
        s.feed(start: 1_920 - 720, samples: 160)
        #expect(s.placements.last == AudioPlacement(drop: 120))
        s.feed(start: 2_160, samples: 160)
        #expect(s.placements.last == .asIs)
        #expect(s.continuity.droppedSamples == 280 && s.position == 3_120)
    }

    /// AAC at 44.1 kHz in Matroska: 1024-sample packets whose times are rounded to the millisecond,
    /// for ten minutes. No silence, no drops, and every run lands within a millisecond of its time.
    @Test func millisecondRoundingIsAbsorbed() {
        var s = Simulation(inputRate: 44_100, outputRate: 48_000)
        for i in 0..<25_840 {
            let ms = (Double(i) * 1024 / 44.1).rounded()
            s.feed(start: Int64(ms * 48), samples: 1024)
        }
        #expect(s.placements.allSatisfy { $0.silence == 0 && $0.drop == 0 })
        #expect(s.worst < 48, "worst error \(s.worst) samples")
    }

    /// A network source's times slewed 500 ppm (and 2000 ppm) either way against the samples, for
    /// ten minutes: followed by compensation alone, the error settles at the slew × 1 s and
    /// stays there, and no run is stretched beyond 0.5 %.
    @Test(arguments: [500.0, -500.0, 2_000.0, -2_000.0])
    func aSlewIsFollowedWithoutDrift(_ ppm: Double) {
        var s = Simulation(inputRate: 8_000, outputRate: 48_000)
        s.watchFrom = 48_000 * 6
        for i in 0..<30_000 {
            let time = 48_000 + Double(i) * 960 * (1 + ppm * 1e-6)
            s.feed(start: Int64(time.rounded()), samples: 160)
        }
        #expect(s.placements.allSatisfy { $0.silence == 0 && $0.drop == 0 })
        let steady = abs(ppm) * 1e-6 * 48_000
        #expect(s.worst < steady * 1.1 + 2, "worst error \(s.worst) samples after 5 s, steady state \(steady)")
        #expect(s.placements.allSatisfy { abs(Double($0.compensation)) <= 0.005 * Double($0.compensationDistance) })
    }

    /// A run 9 ms late (under half of a 20 ms run) is not a gap: compensation takes it back.
    @Test func aSmallStepIsTakenBackSmoothly() {
        var s = Simulation(inputRate: 48_000, outputRate: 48_000)
        for i in 0..<50 { s.feed(start: Int64(i) * 960, samples: 960) }
        for i in 50..<1_000 { s.feed(start: Int64(i) * 960 + 432, samples: 960) }
        #expect(s.placements.allSatisfy { $0.silence == 0 && $0.drop == 0 })
        #expect(abs(s.position - (1_000 * 960 + 432)) < 1, "ends \(s.position - 1_000 * 960) samples late, want 432")
    }

    @Test func runsWithoutTimesFollowOn() {
        var s = Simulation(inputRate: 8_000, outputRate: 48_000)
        s.feed(start: 0, samples: 160)
        s.feed(start: nil, samples: 160)
        s.feed(start: 5_000_000, samples: 0)
        #expect(s.placements == [.asIs, .asIs])
        #expect(s.position == 1_920)
    }

    /// A time two hours ahead is broken, not a gap: no two hours of silence, and later runs are
    /// taken as moved by the step.
    @Test func aStepBeyondAnHourIsABreak() {
        var s = Simulation(inputRate: 8_000, outputRate: 48_000)
        let jump: Int64 = 2 * 3_600 * 48_000
        for i in 0..<2 { s.feed(start: Int64(i) * 960, samples: 160) }
        for i in 2..<100 { s.feed(start: jump + Int64(i) * 960, samples: 160) }
        #expect(s.continuity.clockBreaks == 1)
        #expect(s.placements.allSatisfy { $0 == .asIs })
        // Times, positions and lengths at the ends of their ranges: no trap.
        var c = SoundContinuity(inputRate: 8_000, outputRate: 48_000)
        for start in [Int64.max, Int64.min, 0] { _ = c.place(start: start, samples: Int.max / 2, position: 0) }
        for position in [Int64.max, Int64.min] { _ = c.place(start: 0, samples: 160, position: position) }
        #expect(c.clockBreaks > 0)
    }
}
