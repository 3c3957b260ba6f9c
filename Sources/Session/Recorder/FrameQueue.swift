import Foundation
import Media

/// The bounded queue between the capture thread and the encode thread: frames to encode, or
/// packets a camera compressed itself (`copy` presets).
///
/// `.dropNewest` is the camera's "discard late frames" policy: when the encoder has fallen
/// `capacity` frames behind, the new frame is dropped and counted, and capture never waits.
/// `.block` makes the producer wait for room instead (`--pace off`: nothing is lost by waiting on a
/// file). `@unchecked Sendable`: this is the type that owns the lock; every field is touched only
/// with `condition` held.
package final class FrameQueue<Element>: @unchecked Sendable {
    package enum Policy { case dropNewest, block }

    private let condition = NSCondition()
    /// Popped slots are set to nil at once: a popped frame must not stay referenced here, or its
    /// buffer (a decoder's or the frame pool's, 3 MB at 1080p) cannot be reused until compaction.
    private var items: [Element?] = []
    private var head = 0
    private var closed = false
    private(set) var dropped = 0
    private var capacity: Int
    let policy: Policy

    package init(capacity: Int, policy: Policy) {
        self.capacity = max(1, capacity)
        self.policy = policy
    }

    /// Queues a frame; returns false if it was dropped (queue full under `.dropNewest`, or closed).
    @discardableResult
    package func push(_ frame: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while policy == .block && count >= capacity && !closed { condition.wait() }
        if closed { return false }
        if count >= capacity {
            dropped += 1
            return false
        }
        items.append(frame)
        condition.broadcast()
        return true
    }

    /// Queues an item past the capacity, never dropped nor waited for: a source's sound packets,
    /// a few hundred bytes each, which the late-frame policy must not lose. False once closed.
    @discardableResult
    func pushAlways(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if closed { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// The next frame, waiting for one; nil once the queue is closed and empty.
    package func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while count == 0 && !closed { condition.wait() }
        guard count > 0, let frame = items[head].take() else { return nil }
        head += 1
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return frame
    }

    /// Lowers the capacity (never below 1), once the source's frame size is known.
    func limit(to capacity: Int) {
        condition.lock()
        self.capacity = max(1, min(self.capacity, capacity))
        condition.unlock()
    }

    /// No more frames: the consumer drains what is queued and then gets nil.
    package func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    var depth: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    var droppedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return dropped
    }

    private var count: Int { items.count - head }
}
