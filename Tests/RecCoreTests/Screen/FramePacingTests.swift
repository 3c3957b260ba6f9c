import RecCore
import Testing

/// The screen's pacing, fed grab times and "changed" flags as a 30 fps grabber would.
@Suite("Pacing a screen: changes at their times, repeats while static, keyframes by time")
struct FramePacingTests {
    /// Grabs at 30 fps for `seconds`, with the given times (ms) changing; which were recorded.
    static func run(_ pacing: inout FramePacing, seconds: Double, jitter: (Int) -> Int64 = { _ in 0 },
                    changes: (Int64) -> Bool) -> [Int64] {
        var recorded: [Int64] = []
        for n in 0..<Int(seconds * 30) {
            let time = Int64(n) * 1_000_000 / 30 + jitter(n)
            if pacing.decide(at: time, changed: changes(time)) == .record { recorded.append(time) }
        }
        return recorded
    }

    @Test func aStaticScreenIsRecordedOnceASecond() {
        var pacing = FramePacing(mode: .changes, maxRate: 30, keyframeSeconds: 1)
        let recorded = Self.run(&pacing, seconds: 20) { _ in false }
        // The first picture, then one a second: never more than a second without a picture.
        #expect(recorded.count == 20, "\(recorded)")
        #expect(zip(recorded, recorded.dropFirst()).allSatisfy { $1 - $0 <= 1_000_000 })
        #expect(pacing.changes == 1)
        #expect(pacing.repeats == 19)
        #expect(pacing.repeatDue == recorded.last.map { $0 + 1_000_000 })
    }

    /// A change just before a keyframe was due, then a still screen: the repeat comes when the
    /// keyframe is due, not a whole repeat gap after the change (which left 1.87 s between
    /// keyframes in the screen tests).
    @Test func aRepeatComesWhenTheKeyframeIsDue() {
        var pacing = FramePacing(mode: .changes, maxRate: 30, keyframeSeconds: 1)
        var keys = KeyframeSchedule(seconds: 1, tolerance: 1_000_000 / 60)
        let recorded = Self.run(&pacing, seconds: 6) { $0 == 866_666 }
        let keyframes = recorded.filter { keys.isDue(at: $0) }
        #expect(zip(keyframes, keyframes.dropFirst()).allSatisfy { $1 - $0 <= 1_000_000 + 1_000_000 / 60 }, "\(keyframes)")
        #expect(zip(recorded, recorded.dropFirst()).allSatisfy { $1 - $0 <= 1_000_000 })
        #expect(pacing.repeatDue.map { $0 - recorded.last! <= 1_000_000 } == true)
    }

    @Test func aShorterKeyframeIntervalRepeatsMoreOften() {
        var pacing = FramePacing(mode: .changes, maxRate: 30, keyframeSeconds: 0.5)
        let recorded = Self.run(&pacing, seconds: 10) { _ in false }
        #expect(recorded.count == 20)
        // A longer one still repeats once a second.
        var slow = FramePacing(mode: .changes, maxRate: 30, keyframeSeconds: 4)
        #expect(Self.run(&slow, seconds: 10) { _ in false }.count == 10)
    }

    @Test func changesAreRecordedAtTheirOwnTimes() {
        var pacing = FramePacing(mode: .changes, maxRate: 30, keyframeSeconds: 1)
        // The picture changes during 2.0 s – 2.5 s (every grab) and at 7.2 s (once).
        let busy: (Int64) -> Bool = { t in (2_000_000..<2_500_000).contains(t) || (7_199_000...7_234_000).contains(t) }
        let recorded = Self.run(&pacing, seconds: 10, changes: busy)
        let during = recorded.filter { (2_000_000..<2_500_000).contains($0) }
        #expect(during.count == 15, "every grab of a moving picture: \(during)")
        #expect(recorded.contains { (7_199_000...7_234_000).contains($0) })
        #expect(zip(recorded, recorded.dropFirst()).allSatisfy { $1 - $0 <= 1_000_000 })
    }

    @Test func noMoreThanTheRateAllows() {
        // A damage-driven source reporting changes every 5 ms, capped at 30 a second.
        var pacing = FramePacing(mode: .changes, maxRate: 30, keyframeSeconds: 1)
        var recorded: [Int64] = []
        for n in 0..<400 where pacing.decide(at: Int64(n) * 5_000, changed: true) == .record { recorded.append(Int64(n) * 5_000) }
        #expect(recorded.count <= 31 * 2, "\(recorded.count) in 2 s")
        #expect(zip(recorded, recorded.dropFirst()).allSatisfy { $1 - $0 >= 1_000_000 / 30 / 2 })
        #expect(pacing.skipped == 400 - recorded.count)
    }

    @Test func jitterDoesNotLoseAChange() {
        // Grabs up to 5 ms early or late: a changing picture is still recorded at every grab.
        var pacing = FramePacing(mode: .changes, maxRate: 30, keyframeSeconds: 1)
        let recorded = Self.run(&pacing, seconds: 2, jitter: { n in Int64((n % 3) - 1) * 5_000 }) { _ in true }
        #expect(recorded.count == 60)
    }

    @Test func constantRateKeepsEveryGrab() {
        var pacing = FramePacing(mode: .constant, maxRate: 30, keyframeSeconds: 1)
        let recorded = Self.run(&pacing, seconds: 5) { _ in false }
        #expect(recorded.count == 150)
        #expect(pacing.repeatDue == recorded.last.map { $0 + 33_333 })
    }

    @Test func keyframesFallByTimeWhateverThePictureCount() {
        var schedule = KeyframeSchedule(seconds: 1, tolerance: 16_666)
        // A static second (one picture), then a busy one at 30 fps, then static again.
        var times: [Int64] = [0, 1_000_000]
        times += (1...30).map { 1_000_000 + Int64($0) * 33_333 }
        times += [3_000_000, 4_000_000, 4_990_000]
        let keys = times.filter { schedule.isDue(at: $0) }
        #expect(keys == [0, 1_000_000, 1_999_990, 3_000_000, 4_000_000, 4_990_000], "\(keys)")
        // Within the tolerance of a whole interval, not before.
        var strict = KeyframeSchedule(seconds: 2, tolerance: 10_000)
        let answers = [0, 1_980_000, 1_990_000].map { strict.isDue(at: $0) }
        #expect(answers == [true, false, true])
    }
}
