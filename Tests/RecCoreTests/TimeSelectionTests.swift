import Testing
@testable import RecCore

@Suite struct TimeSelectionTests {
    static func us(_ seconds: Double) -> Timestamp { Timestamp(seconds: seconds) }

    /// A file holding 0–300 s.
    let file = Timeline(availableStart: .zero, availableEnd: us(300))
    /// A live session whose ring holds 100–400 s, "now" at 400.1 s, started at epoch 1000 s.
    let live = Timeline(availableStart: us(100), availableEnd: us(400), now: us(400.1),
                        wallClockAtZero: us(1_000))

    @Test func defaultsToEverything() throws {
        #expect(try TimeSelection().resolve(on: file) == Self.us(0)..<Self.us(300))
    }

    @Test func resolvesOffsets() throws {
        let selection = TimeSelection(from: .offset(Self.us(12)), to: .offset(Self.us(90)))
        #expect(try selection.resolve(on: file) == Self.us(12)..<Self.us(90))
    }

    @Test func resolvesFromEndNowAndFuture() throws {
        let back = TimeSelection(from: .fromEnd(Self.us(30)), to: .now)
        #expect(try back.resolve(on: live) == Self.us(370)..<Self.us(400.1))
        let ahead = TimeSelection(from: .now, to: .fromNow(Self.us(20)))
        #expect(try ahead.resolve(on: live) == Self.us(400.1)..<Self.us(420.1))
    }

    /// The Swift API's saves wait for offsets a live session has not reached; the command
    /// line's refuse them, and a file has no future at all.
    @Test func offsetsInTheFutureOnlyWhenAsked() throws {
        var selection = TimeSelection(from: .offset(Self.us(390)), to: .offset(Self.us(410)))
        #expect(throws: RecError.self) { try selection.resolve(on: live) }
        selection.offsetsMayBeFuture = true
        #expect(try selection.resolve(on: live) == Self.us(390)..<Self.us(410))
        var past = TimeSelection(from: .offset(Self.us(20)), to: .offset(Self.us(30)))
        past.offsetsMayBeFuture = true
        #expect(throws: RecError.self) { try past.resolve(on: live) }
        var fileSelection = TimeSelection(from: .offset(Self.us(290)), to: .offset(Self.us(310)))
        fileSelection.offsetsMayBeFuture = true
        #expect(throws: RecError.self) { try fileSelection.resolve(on: file) }
    }

    @Test func hugeTimesDoNotOverflow() throws {
        let huge = try TimeParser.duration("2562047788h")
        let ahead = try TimeSelection(from: .now, to: .fromNow(huge)).resolve(on: live)
        #expect(ahead.upperBound.value == Int64.max)
        #expect(throws: RecError.self) { try TimeSelection(from: .fromEnd(huge)).resolve(on: live) }
    }

    @Test func resolvesWallClock() throws {
        let selection = TimeSelection(from: .wallClock(Self.us(1_150)), to: .wallClock(Self.us(1_160.5)))
        #expect(try selection.resolve(on: live) == Self.us(150)..<Self.us(160.5))
    }

    @Test func lastClampsToWhatIsHeld() throws {
        #expect(try TimeSelection.last(Self.us(30)).resolve(on: live) == Self.us(370)..<Self.us(400))
        #expect(try TimeSelection.last(Self.us(3_000)).resolve(on: live) == Self.us(100)..<Self.us(400))
    }

    @Test func rejectsReversedRange() {
        let selection = TimeSelection(from: .offset(Self.us(90)), to: .offset(Self.us(60)))
        let error = #expect(throws: RecError.self) { try selection.resolve(on: file) }
        #expect(error?.code == .usage)
        #expect(error?.message == "the start 1:30.000 is not before the end 1:00.000; --from must come before --to")
        let empty = TimeSelection(from: .offset(Self.us(60)), to: .offset(Self.us(60)))
        #expect(throws: RecError.self) { try empty.resolve(on: file) }
    }

    @Test(arguments: [
        (50.0, 200.0), (150.0, 450.0), (390.0, 410.0),
    ])
    func rejectsRangesOutsideTheRing(from: Double, to: Double) {
        let selection = TimeSelection(from: .offset(Self.us(from)), to: .offset(Self.us(to)))
        let error = #expect(throws: RecError.self) { try selection.resolve(on: live) }
        #expect(error?.code == .usage)
        #expect(error?.message.contains("is outside the recording, which holds 1:40.000–6:40.000; choose times inside it") == true)
    }

    @Test func resolvesAgainstStreamTimeBases() throws {
        // A file in 1/90000 ticks holding 0–2 s; the result is in microseconds.
        let ticks = Timeline(availableStart: Timestamp(value: 0, timeBase: Rational(1, 90_000)),
                             availableEnd: Timestamp(value: 180_000, timeBase: Rational(1, 90_000)))
        let range = try TimeSelection(from: .offset(Self.us(0.5)), to: .fromEnd(Self.us(0.25))).resolve(on: ticks)
        #expect(range.lowerBound.value == 500_000 && range.upperBound.value == 1_750_000)
        #expect(range.upperBound.timeBase == .microseconds)
    }

    @Test func rejectsLiveTimesOnFiles() {
        for spec in [TimeSpec.now, .fromNow(Self.us(1)), .wallClock(Self.us(5))] {
            let error = #expect(throws: RecError.self) {
                try TimeSelection(from: .offset(.zero), to: spec).resolve(on: file)
            }
            #expect(error?.message.contains("such as 12s or 1:30") == true)
        }
    }
}
