import RecCore
import Testing

/// `ReorderGate`: a B-frame stream's pictures go on once those presented before them are in, so a
/// stream stopped anywhere ends on a whole run of pictures.
@Suite struct ReorderGateTests {
    /// Frames given as frame numbers (step 10), in decode order; what went out after each.
    static func run(_ frames: [Int], depth: Int, jitter: Int64 = 0) -> (out: [[Int]], waiting: Int) {
        var gate = ReorderGate<Int>(depth: depth, step: 10)
        let out = frames.enumerated().map { i, n in gate.add(n, pts: Int64(n) * 10 + (i.isMultiple(of: 2) ? jitter : -jitter)) }
        return (out, gate.waitingCount)
    }

    @Test func aPyramidGoesOutOnceItsRunIsWhole() {
        // I0 P4 B2 b1 b3 P8 B6 b5 b7, three B-frames with a pyramid (depth 2).
        let (out, waiting) = Self.run([0, 4, 2, 1, 3, 8, 6, 5, 7], depth: 2)
        #expect(out == [[0], [], [], [], [4, 2, 1, 3], [], [], [], [8, 6, 5, 7]])
        #expect(waiting == 0)
    }

    @Test func whatWaitsAtTheEndIsPresentedAfterEverythingLetOut() {
        // Stopped after P8 and B6: 5 and 7 never came, so 8 and 6 wait; 0-4 are out, whole.
        let (out, waiting) = Self.run([0, 4, 2, 1, 3, 8, 6], depth: 2)
        #expect(out.flatMap { $0 }.sorted() == [0, 1, 2, 3, 4])
        #expect(waiting == 2)
    }

    @Test func cameraTimesAStepOffByATickStillCount() {
        let (out, _) = Self.run([0, 3, 1, 2, 6, 4, 5], depth: 1, jitter: 1)
        #expect(out.flatMap { $0 } == [0, 3, 1, 2, 6, 4, 5])
    }

    @Test func aPictureTheCameraLostHoldsNothingForLong() {
        // Frame 2 never comes: 4 waits only until depth + 2 pictures wait behind it.
        let (out, waiting) = Self.run([0, 1, 4, 3, 6, 5, 8, 7, 10, 9], depth: 1)
        // Once 4 went out without 2, the frontier is past the gap and the run goes on as before.
        #expect(out == [[0], [1], [], [], [], [4, 3, 6, 5], [], [8, 7], [], [10, 9]])
        #expect(waiting == 0)
    }

    @Test func endingARunDropsWhatWaitsAndStartsANewOne() {
        var gate = ReorderGate<Int>(depth: 2, step: 10)
        _ = gate.add(0, pts: 0)
        _ = gate.add(4, pts: 40)
        #expect(gate.endRun() == 1)
        #expect(gate.add(100, pts: 1000) == [100])
    }
}
