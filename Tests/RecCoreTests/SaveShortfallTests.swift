import RecCore
import Testing

/// `SaveShortfall`: why a save holds less than asked, from the range asked and the one served.
@Suite struct SaveShortfallTests {
    static func range(_ from: Double, _ to: Double) -> Range<Timestamp> { Timestamp(seconds: from)..<Timestamp(seconds: to) }

    @Test func aRangeServedWholeHasNoShortfall() {
        #expect(SaveShortfall.of(asked: Self.range(2, 10), served: Self.range(2, 10)) == nil)
    }

    @Test func whatWasNeverRecordedIsBeforeTheSession() {
        // `--last 20s` three seconds into a session: the ring holds all of it, from frame 0.
        #expect(SaveShortfall.of(asked: Self.range(-17, 3), served: Self.range(0, 3)) == .beforeSession)
    }

    @Test func whatWasRecordedAndLetGoIsNotHeld() {
        #expect(SaveShortfall.of(asked: Self.range(2, 10), served: Self.range(8.2, 10)) == .notHeld)
        // Both at once: the loss is what counts.
        #expect(SaveShortfall.of(asked: Self.range(-5, 10), served: Self.range(8.2, 10)) == .notHeld)
    }
}
