@testable import Session
import Media
import RecCore
import Testing
import TestPool

/// The late-frame policy, without threads: a full queue drops the new frame and counts it, never
/// grows past its capacity; closing lets the consumer drain and then end.
@Suite(.blocking) struct FrameQueueTests {
    @Test func dropNewestCountsAndBoundsTheQueue() {
        let queue = FrameQueue<Int>(capacity: 3, policy: .dropNewest)
        let accepted = (0..<10).map { queue.push($0) }
        #expect(accepted == [true, true, true, false, false, false, false, false, false, false])
        #expect(queue.droppedCount == 7)
        #expect(queue.depth == 3)
        #expect(queue.pop() == 0)
        #expect(queue.push(10))
        queue.close()
        #expect([queue.pop(), queue.pop(), queue.pop(), queue.pop()] == [1, 2, 10, nil])
        #expect(!queue.push(11))
    }

    @Test func blockPolicyNeverDrops() {
        let queue = FrameQueue<Int>(capacity: 2, policy: .block)
        #expect(queue.push(1) && queue.push(2))
        #expect(queue.pop() == 1)
        #expect(queue.push(3))
        #expect(queue.droppedCount == 0)
        queue.close()
        #expect([queue.pop(), queue.pop(), queue.pop()] == [2, 3, nil])
    }

    /// A popped frame must not stay referenced by the queue: its buffer (a decoder's, or the
    /// frame pool's) is reused only once nobody holds it.
    @Test func aPoppedElementIsReleasedAtOnce() {
        final class Frame {}
        let queue = FrameQueue<Frame>(capacity: 4, policy: .block)
        weak var released: Frame?
        do {
            let frame = Frame()
            released = frame
            #expect(queue.push(frame))
            #expect(queue.push(Frame()))
        }
        #expect(released != nil)
        _ = queue.pop()
        #expect(released == nil)
    }

    @Test func limitLowersTheCapacityOnly() {
        let queue = FrameQueue<Int>(capacity: 16, policy: .dropNewest)
        queue.limit(to: 3)
        queue.limit(to: 10)
        #expect((0..<5).map { queue.push($0) } == [true, true, true, false, false])
    }

    @Test func consumedSlotsAreReclaimed() {
        let queue = FrameQueue<Int>(capacity: 4, policy: .dropNewest)
        for i in 0..<1000 {
            #expect(queue.push(i))
            #expect(queue.pop() == i)
        }
        #expect(queue.depth == 0)
    }
}
