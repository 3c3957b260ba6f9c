import RecCore
import Testing

/// `ArrivalStart`: the pictures libavformat read while opening an arrival-timed camera come out
/// in a burst and are left out, until a read waits for the network or a second has passed.
@Suite struct ArrivalStartTests {
    static let ms: UInt64 = 1_000_000

    /// What `start` says of each read, (began, ended) in milliseconds, in turn.
    static func kept(_ start: inout ArrivalStart, _ reads: [(Double, Double)]) -> [Bool] {
        reads.map { start.keeps(readStarted: UInt64($0.0 * 1e6), ended: UInt64($0.1 * 1e6)) }
    }

    @Test func theBurstAfterOpeningIsLeftOutUntilAReadWaits() {
        var start = ArrivalStart(opened: 1000 * Self.ms)
        // Two reads from the probe's buffer, one that waited 58 ms, then a quick one (kept).
        let kept = Self.kept(&start, [(1000, 1000.02), (1001, 1001.009), (1002, 1060), (1060, 1060.001)])
        #expect(kept == [false, false, true, true])
    }

    @Test func aReaderThatNeverWaitsKeepsEverythingAfterTheLimit() {
        var start = ArrivalStart(opened: 0)
        let kept = Self.kept(&start, [(500, 500.01), (1000, 1000.01), (1001, 1001.01)])
        #expect(kept == [false, true, true])
        #expect(start.settled)
    }
}
