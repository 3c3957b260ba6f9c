/// Which of a screen's pictures a recording keeps: the pacing policy of a source that shows the
/// same picture for long stretches (a desktop). Pure: it sees times and whether the picture
/// changed, never the pictures.
///
/// - A picture that differs from the last one recorded is recorded at its own time, at most
///   `maxRate` a second (a change that comes sooner stays "changed" against the last recorded
///   picture, so the next picture records it).
/// - While nothing changes, the last picture is recorded again once `repeatGap` has passed, so
///   every range of the recording has pictures, and keyframes at the encoder's interval.
/// - `constant` records every picture at the source's rate (a constant-rate file, which editors
///   want); the source then delivers at `maxRate`.
///
/// A source that grabs at a fixed rate (x11grab) asks `decide(at:changed:)` for each grab; a
/// source told of damage (a compositor's frames) also asks `repeatDue` when to wake without one.
package struct FramePacing: Sendable, Equatable {
    package enum Mode: Sendable, Equatable {
        /// Record changes, and repeats while nothing changes: a variable-rate file.
        case changes
        /// Record every picture at the source's rate.
        case constant
    }

    package let mode: Mode
    /// The shortest gap between two recorded pictures, in microseconds (1/`--fps`).
    package let minimumGap: Int64
    /// The longest gap with nothing recorded, in microseconds.
    package let repeatGap: Int64
    /// The preset's keyframe interval, in microseconds: a still picture is recorded again when a
    /// keyframe is due, so a change just before one does not push the next a whole gap away.
    package let keyframeGap: Int64
    /// The time of the last picture the encoder makes a keyframe of (`KeyframeSchedule`'s rule).
    private var lastKeyframe: Int64?
    /// The last recorded picture's time, in microseconds.
    package private(set) var lastRecorded: Int64?
    /// The last recorded picture's place on the rate's grid: a grab a little early still fits
    /// the next place, and pictures never come faster than `maxRate` on average.
    private var slot: Int64 = 0
    /// Pictures recorded because they changed, and because nothing had for `repeatGap`.
    package private(set) var changes = 0
    package private(set) var repeats = 0
    package private(set) var skipped = 0

    /// - Parameters:
    ///   - maxRate: `--fps`, at least 1.
    ///   - keyframeSeconds: the preset's keyframe interval: repeats come at least that often
    ///     (and at least once a second), so a keyframe can fall where the interval says.
    package init(mode: Mode, maxRate: Int, keyframeSeconds: Double) {
        self.mode = mode
        minimumGap = 1_000_000 / Int64(max(1, maxRate))
        let interval = keyframeSeconds > 0 ? min(1, keyframeSeconds) : 1
        repeatGap = max(minimumGap, Int64((interval * 1_000_000).rounded()))
        keyframeGap = keyframeSeconds > 0 ? max(minimumGap, Int64((keyframeSeconds * 1_000_000).rounded())) : repeatGap
    }

    package enum Decision: Sendable, Equatable {
        case record
        case skip
    }

    /// Whether to record the picture grabbed at `time` (microseconds), which `changed` against
    /// the last recorded one. A grab may come up to half a gap early (its timer's jitter).
    package mutating func decide(at time: Int64, changed: Bool) -> Decision {
        guard let last = lastRecorded else { return take(time, change: true) }
        let gap = time - last
        if time < slot + minimumGap - minimumGap / 2 {
            skipped += 1
            return .skip
        }
        switch mode {
        case .constant:
            return take(time, change: changed)
        case .changes:
            if changed { return take(time, change: true) }
            if gap >= repeatGap - minimumGap / 2 || keyframeDue(at: time) { return take(time, change: false) }
            skipped += 1
            return .skip
        }
    }

    /// When the last picture must be recorded again if nothing changes before (microseconds);
    /// nil before the first picture.
    package var repeatDue: Int64? {
        guard let last = lastRecorded else { return nil }
        if mode == .constant { return last + minimumGap }
        return min(last + repeatGap, lastKeyframe.map { $0 + keyframeGap } ?? .max)
    }

    /// Whether a picture at `time` would be the encoder's next keyframe (half a gap early counts).
    private func keyframeDue(at time: Int64) -> Bool {
        lastKeyframe.map { time - $0 >= keyframeGap - minimumGap / 2 } ?? true
    }

    private mutating func take(_ time: Int64, change: Bool) -> Decision {
        if keyframeDue(at: time) { lastKeyframe = time }
        slot = lastRecorded == nil ? time : max(time, slot + minimumGap)
        lastRecorded = time
        if change { changes += 1 } else { repeats += 1 }
        return .record
    }
}

/// Where keyframes fall when pictures do not come at a steady rate: one at least every
/// `interval`, by the pictures' times rather than by counting them (a static screen sends one
/// picture a second, so thirty pictures would be thirty seconds).
package struct KeyframeSchedule: Sendable, Equatable {
    /// Microseconds between keyframes.
    package let interval: Int64
    /// A picture this much early still takes the keyframe (a grab's jitter).
    package let tolerance: Int64
    package private(set) var lastKeyframe: Int64?

    package init(seconds: Double, tolerance: Int64) {
        interval = max(1, Int64((seconds * 1_000_000).rounded()))
        self.tolerance = max(0, min(tolerance, interval / 2))
    }

    /// Whether the picture at `time` (microseconds) must be a keyframe; if so it is counted as one.
    package mutating func isDue(at time: Int64) -> Bool {
        if let last = lastKeyframe, time - last < interval - tolerance { return false }
        lastKeyframe = time
        return true
    }
}
