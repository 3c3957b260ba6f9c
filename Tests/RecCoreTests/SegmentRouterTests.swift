import RecCore
import Testing

/// The order a streamed clip's packets reach its segments, without FFmpeg.
@Suite struct SegmentRouterTests {
    typealias Router = SegmentRouter<Int>

    /// Feeds packets 0..<count and returns the events as text: "c0:5" delivers packet 5 to
    /// segment 0, "f0" finishes it; with the most packets held at once.
    static func run(_ segments: [CutPlan.Segment], count: Int) -> (events: [String], maxHeld: Int, done: Bool) {
        var router = Router(segments)
        var out: [String] = []
        var maxHeld = 0
        for k in 0..<count {
            router.arrive(k, index: k) { e in
                switch e {
                case .deliver(let s, let p): out.append("c\(s):\(p)")
                case .finish(let s): out.append("f\(s)")
                }
            }
            maxHeld = max(maxHeld, router.heldCount)
        }
        return (out, maxHeld, router.isDone)
    }

    /// Head re-encoded from keyframe 0 through keyframe 4 and its leading picture 5, the copy
    /// from 4 (leaving 5 out), and a tail decoded from keyframe 8: the copied keyframe 4 waits for
    /// the head, packets 8-9 are copied and held for the tail, nothing goes out of clip order.
    @Test func headCopyAndTailInClipOrder() {
        let segments: [CutPlan.Segment] = [
            .reencode(decode: 0..<6, presentPTS: 0..<10), .copy(4..<5), .copy(6..<10), .reencode(decode: 8..<12, presentPTS: 20..<30),
        ]
        let r = Self.run(segments, count: 12)
        #expect(r.events == ["c0:0", "c0:1", "c0:2", "c0:3", "c0:4", "c0:5", "f0", "c1:4", "f1",
                             "c2:6", "c2:7", "c2:8", "c2:9", "f2", "c3:8", "c3:9", "c3:10", "c3:11", "f3"])
        #expect(r.maxHeld == 1, "between arrivals only packet 8 waits for the tail (4 went out with the head's last)")
        #expect(r.done)
    }

    @Test func packetsOutsideEverySegmentAreDropped() {
        let r = Self.run([.copy(2..<4)], count: 6)
        #expect(r.events == ["c0:2", "c0:3", "f0"])
        #expect(r.done)
    }

    @Test func notDoneUntilTheLastSegmentHasItsPackets() {
        let r = Self.run([.copy(0..<4)], count: 3)
        #expect(!r.done)
    }
}
