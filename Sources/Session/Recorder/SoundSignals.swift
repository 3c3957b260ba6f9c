import Dispatch
import Foundation
import Media
import RecCore

/// What the capture, encode and audio threads share about a recording's sound: one plain struct
/// behind one lock, and one condition that every change signals, so each thread waits for what it
/// needs (the first picture, the sound to catch up, the pictures to catch up, the end) and a stop
/// wakes it at once. `@unchecked Sendable`: this is the type that owns the lock; `state` is only
/// touched with `condition` held.
final class SoundSignals: @unchecked Sendable {
    struct State {
        /// CLOCK_MONOTONIC nanoseconds of session time 0, once the first picture is captured.
        var epoch: UInt64?
        /// Microseconds of the newest picture captured (for `--pace off`).
        var pictures: Int64 = .min
        /// Microseconds of the end of the last picture once capture has ended (`.max` before).
        var endOfPictures: Int64 = .max
        /// Microseconds of the end of the newest sound placed (`.max` once the audio thread ended).
        var progress: Int64 = .min
        /// Whether the pictures may start: a live source has delivered its first chunk, or the
        /// source is not live, or the audio thread has ended.
        var flowing = false
        /// The source's and encoder's parameters, or why they could not be opened.
        var opened: Result<CodecParameters, RecError>?
        /// The sound was asked to stop at once.
        var stopRequested = false
        /// The audio thread has ended.
        var finished = false
    }

    private let condition = NSCondition()
    private var state: State

    init(_ state: State) {
        self.state = state
    }

    /// Changes the state, then wakes every waiter unless `wakes` is false.
    @discardableResult
    func update<T>(wakes: Bool = true, _ body: (inout State) -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        let result = body(&state)
        if wakes { condition.broadcast() }
        return result
    }

    func read<T>(_ body: (State) -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body(state)
    }

    /// Wakes every waiter so it checks its `interrupted` again (after the caller changed what it
    /// reads, e.g. the recording's stop flag).
    func wake() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `done` holds, `interrupted` says so (checked with the lock held, so a change
    /// followed by `wake()` is never missed) or `deadline` (CLOCK_MONOTONIC ns) passes. Returns
    /// whether `done` holds.
    @discardableResult
    func wait(deadline: UInt64? = nil, interrupted: () -> Bool = { false }, until done: (State) -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !done(state) && !interrupted() {
            guard let deadline else {
                condition.wait()
                continue
            }
            let now = DispatchTime.now().uptimeNanoseconds
            if now >= deadline { break }
            // NSCondition takes a wall-clock deadline: each wait is cut to 0.1 s, so a step of the
            // wall clock holds nothing longer than that.
            _ = condition.wait(until: Date(timeIntervalSinceNow: min(Double(deadline - now) / 1e9, 0.1)))
        }
        return done(state)
    }
}
