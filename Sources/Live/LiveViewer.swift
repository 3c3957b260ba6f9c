import Dispatch
import RecCore
import Synchronization

/// One viewer of the live stream: its bounded `FragmentQueue` (filled by the fan-out thread, which
/// never waits for it) and the bytes its connection's thread is sending.
package final class LiveViewer: HTTPStream {
    struct State {
        var queue: FragmentQueue
        var pending = OutgoingBytes()
        var started = false
        var closed = false
        var sentBytes = 0
    }

    private let state: Mutex<State>
    private let wake = DispatchSemaphore(value: 0)

    init(queue: FragmentQueue = FragmentQueue()) {
        state = Mutex(State(queue: queue))
    }

    /// Whether the fan-out thread still has to give this viewer an init segment.
    var needsStart: Bool { state.withLock { !$0.started && !$0.closed } }

    var isClosed: Bool { state.withLock { $0.closed || $0.queue.closed } }

    var skips: Int { state.withLock { $0.queue.skips } }

    /// Called once, on the fan-out thread, before any fragment.
    func start(initSegment: [UInt8]) {
        state.withLock {
            $0.pending = OutgoingBytes(initSegment)
            $0.started = true
        }
        wake.signal()
    }

    /// Called on the fan-out thread; never blocks beyond the lock.
    func push(_ fragment: [UInt8], keyframe: Bool) {
        let outcome = state.withLock { $0.started ? $0.queue.push(fragment, keyframe: keyframe) : .waiting }
        if outcome == .queued || outcome == .closed { wake.signal() }
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        while true {
            let n: Int? = state.withLock { s in
                if s.closed || s.queue.closed { return -1 }
                if s.pending.isEmpty, s.started { s.pending = OutgoingBytes(s.queue.drain()) }
                let count = s.pending.copy(into: buffer)
                if count <= 0 { return nil }
                s.sentBytes += count
                return count
            }
            if let n { return n < 0 ? nil : n }
            wake.wait()  // start, push and close each signal
        }
    }

    package func close() {
        state.withLock { $0.closed = true }
        wake.signal()
    }
}
