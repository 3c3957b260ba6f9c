import Dispatch
import Synchronization
import Media
import RecCore

/// What the capture, encode and audio threads share about a recording's sound: one plain struct
/// behind one lock, and the project's one waiting mechanism (`Latch`) pulsed on every change, so
/// each thread waits for what it needs (the first picture, the sound to catch up, the pictures to
/// catch up, the end) on the monotonic clock, and a stop wakes it at once.
final class SoundSignals: Sendable {
    struct State: Sendable {
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

    private let state: Mutex<State>
    private let changes = Latch()

    init(_ state: State) {
        self.state = Mutex(state)
    }

    /// Changes the state, then wakes every waiter unless `wakes` is false.
    @discardableResult
    func update<T: Sendable>(wakes: Bool = true, _ body: (inout State) -> T) -> T {
        let result = state.withLock { body(&$0) }
        if wakes { changes.pulse() }
        return result
    }

    func read<T: Sendable>(_ body: (State) -> T) -> T {
        state.withLock { body($0) }
    }

    /// Wakes every waiter so it checks its `interrupted` again (after the caller changed what it
    /// reads, e.g. the recording's stop flag).
    func wake() {
        changes.pulse()
    }

    /// Waits until `done` holds, `interrupted` says so (a change followed by `wake()` is never
    /// missed: the latch counts pulses) or `deadline` (CLOCK_MONOTONIC ns) passes. Returns
    /// whether `done` holds.
    @discardableResult
    func wait(deadline: UInt64? = nil, interrupted: () -> Bool = { false }, until done: (State) -> Bool) -> Bool {
        let until: Latch.Deadline = deadline.map { .at(DispatchTime(uptimeNanoseconds: $0)) } ?? .never
        _ = changes.wait(until: until) { state.withLock { done($0) } || interrupted() }
        return state.withLock { done($0) }
    }
}
