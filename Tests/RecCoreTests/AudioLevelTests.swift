import RecCore
import Testing

/// The peak meter: the loudest chunk of the last second, in dBFS, and its terminal bar.
@Suite struct AudioLevelTests {
    @Test func silenceHasNoLevel() {
        var level = AudioLevel()
        #expect(level.peak == 0 && level.peakDBFS == nil)
        level.add(peak: 0, samples: 1_024, rate: 48_000)
        #expect(level.peak == 0 && level.peakDBFS == nil)
        #expect(AudioLevel.bar(level.peakDBFS, width: 10) == "[----------] -inf dBFS")
    }

    @Test func fullScaleIsZeroDBFSAndHalfIsMinusSix() throws {
        var level = AudioLevel()
        level.add(peak: 1, samples: 480, rate: 48_000)
        #expect(level.peakDBFS == 0)
        level = AudioLevel()
        level.add(peak: 0.5, samples: 480, rate: 48_000)
        let db = try #require(level.peakDBFS)
        #expect(abs(db - -6.0206) < 0.001)
    }

    /// A loud chunk holds the meter for one second of sound after it, then quieter ones show.
    @Test func aPeakHoldsForOneSecondOfSound() {
        var level = AudioLevel()
        level.add(peak: 0.9, samples: 4_800, rate: 48_000) // ends at 0.1 s
        for _ in 0..<9 { level.add(peak: 0.1, samples: 4_800, rate: 48_000) } // to 1.0 s
        #expect(level.peak == 0.9)
        level.add(peak: 0.1, samples: 4_799, rate: 48_000)
        #expect(level.peak == 0.9, "the loud chunk ended less than a second ago")
        level.add(peak: 0.2, samples: 48, rate: 48_000) // just past 1.1 s: it ended over a second ago
        #expect(level.peak == 0.2)
    }

    /// Rates may change between chunks: the window is a second of sound at each chunk's own rate.
    @Test func theWindowIsTimeNotSamples() {
        var level = AudioLevel()
        level.add(peak: 0.8, samples: 441, rate: 44_100)
        level.add(peak: 0.3, samples: 48_000, rate: 48_000)
        #expect(level.peak == 0.3)
    }

    @Test func badInputIsTamed() {
        var level = AudioLevel()
        level.add(peak: .nan, samples: 100, rate: 48_000)
        #expect(level.peak == 0)
        level.add(peak: 3, samples: 100, rate: 48_000)
        #expect(level.peak == 1 && level.peakDBFS == 0)
        level.add(peak: 0.5, samples: 0, rate: 48_000)
        level.add(peak: 0.5, samples: 100, rate: 0)
        level.add(peak: 0.5, samples: .max, rate: 1)
        #expect(level.peak == 0.5, "a chunk longer than the window pushes everything before it out")
        level.add(peak: -1, samples: 100, rate: 48_000)
        #expect(level.peak == 0.5)
    }

    @Test(arguments: [
        (0.0, 12, "[############] 0 dBFS"),
        (-12.0, 12, "[##########--] -12 dBFS"),
        (-30.0, 10, "[#####-----] -30 dBFS"),
        (-60.0, 8, "[--------] -60 dBFS"),
        (-96.3, 8, "[--------] -96 dBFS"),
        (3.0, 4, "[####] 0 dBFS"),
        (-12.0, 0, "[] -12 dBFS"),
        (-12.0, -5, "[] -12 dBFS"),
        (-Double.infinity, 4, "[----] -inf dBFS"),
    ])
    func bar(dbfs: Double, width: Int, text: String) {
        #expect(AudioLevel.bar(dbfs, width: width) == text)
    }

    @Test func barOfNothing() {
        #expect(AudioLevel.bar(nil, width: 3) == "[---] -inf dBFS")
        #expect(AudioLevel.bar(.nan, width: 3) == "[---] -inf dBFS")
    }
}
