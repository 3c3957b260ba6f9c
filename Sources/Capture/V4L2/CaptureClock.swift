import RecCore

/// Turns driver timestamps and sequence numbers into the session's: capture time 0 and sequence
/// 0 at the first frame, strictly increasing, continuing across a reopen.
struct CaptureClock {
    private var base: Int64?
    /// CLOCK_MONOTONIC microseconds of session time 0, once the first frame has come.
    var epochMicroseconds: Int64? { base }
    private var lastTime: Int64 = -1
    private var lastDriverSequence: UInt32?
    private var nextSequence: Int64 = 0

    /// The session time for a frame at `microseconds` on CLOCK_MONOTONIC.
    mutating func captureTime(_ microseconds: Int64) -> Timestamp {
        let base = base ?? microseconds
        self.base = base
        lastTime = max(microseconds - base, lastTime + 1)
        return .microseconds(lastTime)
    }

    /// The session sequence number for the driver's `sequence`, and how many frames the driver
    /// skipped before it.
    mutating func sequence(_ sequence: UInt32) -> (sequence: Int64, skipped: Int) {
        var skipped = 0
        if let last = lastDriverSequence {
            let step = sequence &- last
            skipped = step > 0 && step < 1 << 31 ? Int(step) - 1 : 0
        }
        lastDriverSequence = sequence
        defer { nextSequence += 1 }
        nextSequence += Int64(skipped)
        return (nextSequence, skipped)
    }

    /// After a reopen the driver counts from 0 again; the session's count goes on.
    mutating func resume() { lastDriverSequence = nil }
}
