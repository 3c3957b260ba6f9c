import Testing
@testable import RecCore

/// Issue 39's corpus under load: an HTTP MJPEG camera's pictures read at once after the reader
/// was away got one time, the ring took the second for a new timeline (its 8 s buffer went), and
/// the recording's times repeated.
@Suite struct ArrivalSpacingTests {
    @Test func picturesReadAtOnceAreAMillisecondApart() {
        var spacing = ArrivalSpacing(least: 90)   // 1 ms at 90 kHz
        // 15 a second (6000 ticks), then four read together at 30_000, then on time again.
        let placed = [0, 6_000, 30_000, 30_000, 30_000, 30_001, 36_000].map { $0 + spacing.shift(placing: $0) }
        #expect(placed == [0, 6_000, 30_000, 30_090, 30_180, 30_270, 36_000])
    }

    @Test func timesFarEnoughApartAreKept() {
        var spacing = ArrivalSpacing(least: 90)
        #expect([100, 190, 1_000, 5_000].map { spacing.shift(placing: $0) } == [0, 0, 0, 0])
    }
}
