import RecCore
@testable import Session
import Testing
import TestPool

/// Where a gap begins when a source hands out, after reconnecting, frames it held from before
/// it went away (a network camera's last packet waits for its successor's time).
@Suite(.blocking) struct OutageTests {
    let frame = 1.0 / 30

    @Test func aHeldFrameMovesTheGapsStartPastIt() throws {
        // The last picture counted began at 3.000 s: the gap would begin at 3.033 s.
        let outage = Outage(from: Timestamp(seconds: 3 + frame), frame: frame)
        let held = try #require(outage.straggler(Timestamp(seconds: 3 + frame)))
        #expect(abs(held.seconds - (3 + 2 * frame)) < 1e-6)
        // An earlier one (a B-frame's decode time) leaves it where it was.
        #expect(outage.straggler(Timestamp(seconds: 3))?.seconds == outage.from.seconds)
    }

    @Test func aFrameFromAfterTheGapEndsIt() {
        let outage = Outage(from: Timestamp(seconds: 3 + frame), frame: frame)
        #expect(outage.straggler(Timestamp(seconds: 6.25)) == nil)
        // More than half a frame late is after the gap, however short.
        #expect(outage.straggler(Timestamp(seconds: 3 + 1.6 * frame)) == nil)
    }
}
