import Dispatch
import Synchronization

/// The one way a thread in rec waits for another: a latch that opens once for good (`release`,
/// "finished", "stop"), and a condition that wakes its waiters each time something they watch may
/// have changed (`pulse`, "the ring moved"). Every wait takes a deadline, and a release wakes every
/// wait at once, so a stop never waits out a clock.
///
/// ```
/// // the waiting thread                          // the thread that changes things
/// latch.wait(until: deadline) { ring.end >= t }  ring.append(packet); latch.pulse()
///                                                // the thread that stops
///                                                latch.release()
/// ```
///
/// Built on `Mutex` (its state) and one `DispatchSemaphore` per sleeping waiter, created for that
/// wait: a pulse or release signals the sleepers registered at that moment and forgets them, so no
/// count is ever left over for a later wait. Deadlines are monotonic (`DispatchTime`). A waiter
/// reads the pulse count before it checks its condition and sleeps only if the count has not
/// moved since, so a change made between the check and the sleep is never missed, as long as
/// whoever changes what a condition reads calls `pulse()` after the change.
package final class Latch: Sendable {
    /// How a `wait(until:_:)` ended.
    package enum Outcome: Sendable, Equatable {
        /// The condition held.
        case met
        /// The latch was released first (a stop, or the end of what was awaited).
        case released
        /// The deadline passed.
        case timedOut
    }

    /// When a wait gives up.
    package enum Deadline: Sendable {
        /// Never: only the condition or a release ends the wait.
        case never
        /// At this monotonic instant (`.now() + seconds`), or at once if it has passed.
        case at(DispatchTime)

        /// `seconds` from now.
        package static func after(_ seconds: Double) -> Deadline { .at(.now() + seconds) }

        var hasPassed: Bool {
            if case .at(let time) = self { return time <= .now() }
            return false
        }
    }

    private struct State {
        var released = false
        var pulses: UInt64 = 0
        var nextSleeper: UInt64 = 0
        var sleepers: [UInt64: DispatchSemaphore] = [:]

        mutating func wakeAll() {
            for sleeper in sleepers.values { sleeper.signal() }
            sleepers.removeAll()
        }
    }

    private let state = Mutex(State())

    package init() {}

    /// Whether `release()` has been called.
    package var isReleased: Bool { state.withLock { $0.released } }

    /// How many times `pulse()` has been called: a waiter for "the next change" waits until it moves.
    package var pulses: UInt64 { state.withLock { $0.pulses } }

    /// Opens the latch for good: every wait returns now, and every later one at once. True the
    /// first time, false after.
    @discardableResult
    package func release() -> Bool {
        state.withLock { s in
            guard !s.released else { return false }
            s.released = true
            s.wakeAll()
            return true
        }
    }

    /// Wakes the threads waiting now so they check their conditions again; does not stay open.
    /// Cheap when nobody waits (a lock and an increment): the encode thread pulses per packet.
    package func pulse() {
        state.withLock { s in
            s.pulses &+= 1
            if !s.sleepers.isEmpty { s.wakeAll() }
        }
    }

    /// Blocks until the latch is released or `deadline` passes; true if released.
    @discardableResult
    package func wait(until deadline: Deadline = .never) -> Bool {
        wait(until: deadline) { false } == .released
    }

    /// Blocks until `condition` holds, the latch is released, or `deadline` passes, checking
    /// `condition` (on this thread, without the latch's lock) at once and after every pulse. The
    /// condition is checked first: a wait whose condition holds says `.met` even when released.
    package func wait(until deadline: Deadline = .never, _ condition: () -> Bool) -> Outcome {
        while true {
            let (released, seen) = state.withLock { ($0.released, $0.pulses) }
            if condition() { return .met }
            if released { return .released }
            if deadline.hasPassed { return .timedOut }
            let sleeper = DispatchSemaphore(value: 0)
            let id: UInt64? = state.withLock { s in
                // A pulse or release since the check: look again instead of sleeping.
                guard !s.released, s.pulses == seen else { return nil }
                let id = s.nextSleeper
                s.nextSleeper &+= 1
                s.sleepers[id] = sleeper
                return id
            }
            guard let id else { continue }
            switch deadline {
            case .never:
                sleeper.wait()
            case .at(let time):
                if sleeper.wait(timeout: time) == .timedOut {
                    state.withLock { _ = $0.sleepers.removeValue(forKey: id) }
                }
            }
        }
    }
}
