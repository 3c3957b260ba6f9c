/// How long to wait between attempts to reach a camera that went away, for as long as the session
/// runs. Pure: the caller says when things happen (seconds on the local monotonic clock, any
/// origin) and waits on its stop condition for the delay this returns.
///
/// The schedule: 0.5 s after the first failure, doubling (1, 2, 4, 8 s), at most 10 s: a camera
/// that reboots (30 to 90 s) is back within 10 s of being ready, and one that stays away costs an
/// attempt every 10 s. Each delay is shortened by up to `jitter` (25 %) at random, never
/// lengthened, so that the cameras of a box that lost them all at once (a switch rebooting) do
/// not come back in step, and the 10 s stays a limit. The count of failures goes back to zero
/// once a connection has streamed for `resetAfter` (30 s): a camera that connects and drops
/// within seconds (a full server, a bad stream) keeps backing off instead of being hammered.
package struct ReconnectBackoff: Sendable {
    package struct Policy: Sendable, Equatable {
        /// The delay after the first failure (seconds).
        package var first: Double
        /// The longest delay (seconds).
        package var limit: Double
        /// The largest share of a delay taken off at random, from 0 to 1.
        package var jitter: Double
        /// How long a connection must stream before the failure count starts again (seconds).
        package var resetAfter: Double

        package init(first: Double = 0.5, limit: Double = 10, jitter: Double = 0.25, resetAfter: Double = 30) {
            self.first = max(0, first)
            self.limit = max(self.first, limit)
            self.jitter = min(1, max(0, jitter))
            self.resetAfter = max(0, resetAfter)
        }

        package static let standard = Policy()

        /// The delay before attempt `failures` + 1, without jitter: `first` × 2^(failures − 1),
        /// at most `limit`; 0 for no failure.
        package func delay(afterFailures failures: Int) -> Double {
            guard failures > 0 else { return 0 }
            return min(limit, first * Double(1 << min(failures - 1, 30)))
        }
    }

    package let policy: Policy
    /// Failed attempts (or lost connections) since the last connection that streamed long enough.
    package private(set) var failures = 0
    /// When the current outage began (the first failure since the last success); nil while
    /// connected.
    package private(set) var outageStart: Double?
    /// How long the last outage lasted, from its first failure to the success that ended it.
    package private(set) var lastOutage: Double?
    /// When the current connection succeeded; nil while disconnected.
    package private(set) var connectedAt: Double?
    private var random: any RandomNumberGenerator & Sendable

    /// `random` draws the jitter; tests give a seeded or fixed one.
    package init(policy: Policy = .standard,
                random: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()) {
        self.policy = policy
        self.random = random
    }

    /// An attempt failed, or the connection was lost, at `now`: the seconds to wait before the
    /// next attempt.
    package mutating func next(now: Double) -> Double {
        if let connectedAt, now - connectedAt >= policy.resetAfter { failures = 0 }
        connectedAt = nil
        if outageStart == nil { outageStart = now }
        failures += 1
        let delay = policy.delay(afterFailures: failures)
        let share = Double(random.next() >> 11) / Double(UInt64(1) << 53) // uniform in [0, 1)
        return delay * (1 - policy.jitter * share)
    }

    /// A connection succeeded at `now` (the camera is streaming again).
    package mutating func succeeded(now: Double) {
        if let outageStart { lastOutage = max(0, now - outageStart) }
        outageStart = nil
        connectedAt = now
    }
}
