import RecCore
import Testing

/// The wall clock of session time 0 from the source's first frame, not from when the recorder
/// got round to it.
@Suite struct ArrivalWallClockTests {
    @Test func theFirstFramesInstantIsTakenBackFromNow() {
        // The first frame came 250 ms ago on the monotonic clock.
        #expect(ArrivalWallClock.atEpoch(9_750_000_000, wallNow: 1_800_000_000_000_000, monotonicNow: 10_000_000_000)
                == 1_799_999_999_750_000)
        #expect(ArrivalWallClock.atEpoch(10_000_000_000, wallNow: 5, monotonicNow: 10_000_000_000) == 5)
    }

    @Test func noEpochOrAnImplausibleOneLeavesNow() {
        #expect(ArrivalWallClock.atEpoch(nil, wallNow: 42, monotonicNow: 7) == 42)
        #expect(ArrivalWallClock.atEpoch(8, wallNow: 42, monotonicNow: 7) == 42, "an epoch in the future")
        #expect(ArrivalWallClock.atEpoch(0, wallNow: 42, monotonicNow: 61_000_000_000) == 42, "a minute and more ago")
        #expect(ArrivalWallClock.atEpoch(0, wallNow: 60_000_042, monotonicNow: 60_000_000_000) == 42)
    }
}
