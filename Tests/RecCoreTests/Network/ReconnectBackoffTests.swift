import RecCore
import Testing

/// The delays between attempts to reach a camera that went away.
@Suite struct ReconnectBackoffTests {
    /// A source that always draws the same number.
    struct Fixed: RandomNumberGenerator, Sendable {
        var value: UInt64
        mutating func next() -> UInt64 { value }
    }

    @Test func theScheduleDoublesFromHalfASecondToTen() {
        var backoff = ReconnectBackoff(random: Fixed(value: 0))
        let delays = (0..<8).map { backoff.next(now: Double($0)) }
        #expect(delays == [0.5, 1, 2, 4, 8, 10, 10, 10])
        #expect(backoff.failures == 8 && backoff.outageStart == 0)
        #expect(ReconnectBackoff.Policy.standard.delay(afterFailures: 0) == 0)
        #expect(ReconnectBackoff.Policy.standard.delay(afterFailures: 10_000) == 10)
    }

    /// Jitter only shortens, by at most a quarter: the largest draw gives three quarters.
    @Test func jitterShortensByAtMostAQuarter() {
        var backoff = ReconnectBackoff(random: Fixed(value: .max))
        let delays = (0..<6).map { backoff.next(now: Double($0)) }
        let expected = [0.5, 1, 2, 4, 8, 10].map { $0 * 0.75 }
        #expect(zip(delays, expected).allSatisfy { abs($0 - $1) < 1e-9 })
    }

    /// Sixteen cameras lost at once (a switch rebooting) do not come back in step, and each
    /// delay stays within its bounds; the same source gives the same delays.
    @Test func camerasLostTogetherSpreadOut() {
        var attempts: [[Double]] = []
        for seed in 1...16 {
            var backoff = ReconnectBackoff(random: SeededGenerator(seed: UInt64(seed)))
            attempts.append((0..<6).map { backoff.next(now: Double($0)) })
        }
        for delays in attempts {
            for (delay, base) in zip(delays, [0.5, 1, 2, 4, 8, 10]) { #expect(delay > base * 0.75 - 1e-9 && delay <= base) }
        }
        let fifth = attempts.map { $0[4] }
        #expect((fifth.max() ?? 0) - (fifth.min() ?? 0) >= 1, "8 s attempts spread over at least a second")
        var again = ReconnectBackoff(random: SeededGenerator(seed: 1))
        #expect((0..<6).map { again.next(now: Double($0)) } == attempts[0])
    }

    /// A connection that streamed 30 s earns a fresh start; one that dropped within seconds
    /// (a full server, a bad stream) keeps backing off.
    @Test func theCountStartsAgainOnlyAfterStreamingAWhile() {
        var backoff = ReconnectBackoff(random: Fixed(value: 0))
        #expect([backoff.next(now: 0), backoff.next(now: 0.5), backoff.next(now: 1.5)] == [0.5, 1, 2])
        backoff.succeeded(now: 3.5)
        #expect(backoff.outageStart == nil && backoff.lastOutage == 3.5 && backoff.connectedAt == 3.5)
        #expect(backoff.next(now: 8.5) == 4, "5 s of streaming: still backing off")
        #expect(backoff.outageStart == 8.5)
        backoff.succeeded(now: 12.5)
        #expect(backoff.lastOutage == 4)
        #expect(backoff.next(now: 42.5) == 0.5, "30 s of streaming: a fresh start")
        #expect(backoff.failures == 1)
    }

    @Test func aPolicyOutOfRangeIsClamped() {
        let policy = ReconnectBackoff.Policy(first: -1, limit: -5, jitter: 7, resetAfter: -2)
        #expect(policy.first == 0 && policy.limit == 0 && policy.jitter == 1 && policy.resetAfter == 0)
        var backoff = ReconnectBackoff(policy: ReconnectBackoff.Policy(first: 2, limit: 1), random: Fixed(value: 0))
        #expect(backoff.next(now: 0) == 2, "the limit is never below the first delay")
    }
}
