import Foundation
import RecCore
import Synchronization
import Testing

/// The latch every waiting thread uses: outcomes and wake-ups, asserted by what the waiter saw,
/// never by how long anything took. A deadline that has passed stands in for "time ran out".
@Suite struct LatchTests {
    /// Runs `body` on a thread of its own; the returned latch is released when it has returned.
    static func onThread(_ body: @escaping @Sendable () -> Void) -> Latch {
        let ended = Latch()
        Thread {
            body()
            ended.release()
        }.start()
        return ended
    }

    @Test func aReleasedLatchLetsEveryWaitThroughAtOnce() {
        let latch = Latch()
        #expect(latch.release())
        #expect(!latch.release(), "only the first release counts")
        #expect(latch.isReleased)
        #expect(latch.wait())
        #expect(latch.wait(until: .never) { false } == .released)
    }

    @Test func aConditionThatHoldsIsMetEvenWhenReleased() {
        let latch = Latch()
        #expect(latch.wait { true } == .met)
        latch.release()
        #expect(latch.wait { true } == .met)
    }

    @Test func aDeadlineThatHasPassedEndsTheWait() {
        let latch = Latch()
        #expect(latch.wait(until: .at(.now())) { false } == .timedOut)
        #expect(!latch.wait(until: .at(.now())))
        #expect(!latch.isReleased)
    }

    @Test func aTimedOutSleeperIsForgottenAndTheLatchStillWorks() {
        let latch = Latch()
        // Sleeps (a deadline a moment ahead), times out, and must leave nothing behind.
        #expect(latch.wait(until: .after(0.001)) { false } == .timedOut)
        latch.pulse()
        latch.release()
        #expect(latch.wait())
    }

    @Test func aReleaseWakesAWaiterWithNoDeadline() {
        let latch = Latch()
        let checked = Latch()
        let outcome = Mutex<Latch.Outcome?>(nil)
        let ended = Self.onThread {
            let o = latch.wait(until: .never) {
                checked.release()
                return false
            }
            outcome.withLock { $0 = o }
        }
        checked.wait()
        #expect(outcome.withLock { $0 } == nil, "nothing has woken the waiter yet")
        latch.release()
        ended.wait()
        #expect(outcome.withLock { $0 } == .released)
    }

    @Test func aPulseMakesTheWaiterLookAgainAndAChangeEndsTheWait() {
        let latch = Latch()
        let value = Mutex(0)
        let looks = Mutex(0)
        let firstLook = Latch()
        let outcome = Mutex<Latch.Outcome?>(nil)
        let ended = Self.onThread {
            let o = latch.wait {
                // The value is read before the test is told of the look: read after, it could
                // already be 2, and the first look would end the wait.
                let wanted = value.withLock { $0 } == 2
                looks.withLock { $0 += 1 }
                firstLook.release()
                return wanted
            }
            outcome.withLock { $0 = o }
        }
        firstLook.wait()
        value.withLock { $0 = 1 }
        latch.pulse()          // a change the waiter does not want: it looks and waits on
        value.withLock { $0 = 2 }
        latch.pulse()
        ended.wait()
        #expect(outcome.withLock { $0 } == .met)
        #expect(looks.withLock { $0 } >= 2)
        #expect(!latch.isReleased, "a pulse does not stay open")
        #expect(latch.pulses == 2)
    }

    @Test func aReleaseWakesEveryWaiter() {
        let latch = Latch()
        let waiters = 8
        let looked = Mutex(0)
        let allLooked = Latch()
        let released = Mutex(0)
        let ends = (0..<waiters).map { _ in
            Self.onThread {
                let o = latch.wait {
                    if looked.withLock({ $0 += 1; return $0 }) == waiters { allLooked.release() }
                    return false
                }
                if o == .released { released.withLock { $0 += 1 } }
            }
        }
        allLooked.wait()
        latch.release()
        for end in ends { end.wait() }
        #expect(released.withLock { $0 } == waiters)
    }
}
