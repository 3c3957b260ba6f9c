/// The fields of a `status` request: none for the state now, or `wait`, a condition the reply
/// waits for, so a client that needs "300 frames recorded" is told when, instead of asking again
/// and again.
package struct StatusRequest: Sendable, Equatable, Codable {
    /// Answer once this holds (or at its timeout); nil answers at once.
    package var wait: StatusWait?

    package init(wait: StatusWait? = nil) {
        self.wait = wait
    }

    /// The checks JSON decoding cannot make; nil when the request makes sense.
    package func problem() -> String? {
        wait?.problem()
    }
}

/// What a `status` request waits for: every condition given holds, checked each time a packet
/// enters the ring; the reply comes then, when the recording ends, or at `timeout`.
package struct StatusWait: Sendable, Equatable, Codable {
    /// At least this many frames captured (`frames` in the reply).
    package var frames: Int?
    /// The ring's newest packet at or after this session time, in seconds (`ring_end` in the
    /// reply's `extra`).
    package var ringEnd: Double?
    /// `true`: the session has an error to report (`last_error` in the reply), such as a full
    /// disk it goes on recording past in its ring.
    package var error: Bool?
    /// Seconds to wait at most; `defaultTimeout` when nil.
    package var timeout: Double?

    /// How long a wait lasts when the request does not say.
    package static let defaultTimeout = 10.0
    /// The longest wait a request may ask for.
    package static let maxTimeout = 3600.0

    package init(frames: Int? = nil, ringEnd: Double? = nil, error: Bool? = nil, timeout: Double? = nil) {
        self.frames = frames
        self.ringEnd = ringEnd
        self.error = error
        self.timeout = timeout
    }

    /// The timeout that applies, in seconds.
    package var seconds: Double { timeout ?? Self.defaultTimeout }

    private enum CodingKeys: String, CodingKey {
        case frames, ringEnd = "ring_end", error, timeout
    }

    /// The checks JSON decoding cannot make; nil when the wait makes sense.
    package func problem() -> String? {
        if frames == nil && ringEnd == nil && error != true { return "'wait' needs 'frames', 'ring_end' or 'error': true" }
        if let frames, frames < 0 { return "'wait.frames' must be 0 or more, not \(frames)" }
        if let ringEnd, !(0...ControlTime.maxSeconds).contains(ringEnd) {
            return "'wait.ring_end' must be from 0 to \(Int(ControlTime.maxSeconds)) seconds"
        }
        if let timeout, !(0...Self.maxTimeout).contains(timeout) {
            return "'wait.timeout' must be from 0 to \(Int(Self.maxTimeout)) seconds"
        }
        return nil
    }
}

/// How a `status` wait ended, as the reply's `wait`; words this build does not know still decode.
package struct StatusWaitOutcome: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    package var rawValue: String

    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Every condition held.
    package static let met = StatusWaitOutcome(rawValue: "met")
    /// The timeout passed first; the body says what was reached.
    package static let timeout = StatusWaitOutcome(rawValue: "timeout")
    /// The recording ended first.
    package static let ended = StatusWaitOutcome(rawValue: "ended")

    package var description: String { rawValue }
}
