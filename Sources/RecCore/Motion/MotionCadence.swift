/// Chooses the pictures the motion detector analyses: at most `rate` a second, on a fixed grid of
/// session time, so that a camera at 5 and one at 30 pictures a second are judged at the same
/// instants (within one of their frames) and the background follows the scene at the same speed.
package struct MotionCadence: Sendable, Equatable {
    /// Pictures analysed a second (`--motion-fps`).
    package let rate: Double
    private var next: Double?

    package init(rate: Double = MotionCadence.standardRate) {
        self.rate = max(0.1, rate)
    }

    /// Frigate's detect stream runs at 5 pictures a second; so does rec's analysis.
    package static let standardRate = 5.0

    /// The grid's step in seconds.
    package var interval: Double { 1 / rate }

    /// Whether the picture captured at `seconds` (session time) is analysed: the first picture at
    /// or after each grid point is. A jump (an outage, a new timeline) restarts the grid there.
    package mutating func takes(_ seconds: Double) -> Bool {
        guard let due = next, seconds < due + 10 * interval, seconds >= due - 10 * interval else {
            next = (seconds / interval).rounded(.down) * interval + interval
            return true
        }
        guard seconds >= due - interval / 1000 else { return false }
        var point = due
        while point <= seconds + interval / 1000 { point += interval }
        next = point
        return true
    }
}
