/// A session's motion settings (`rec start --motion`, docs/EVENTS.md): how pictures are judged,
/// how events start and end, and, with `--on-motion save`, which clips are saved and where.
package struct MotionConfiguration: Sendable, Equatable {
    package var detector = MotionSettings()
    /// Pictures judged a second (`--motion-fps`).
    package var rate = MotionCadence.standardRate
    package var tracker = MotionTracker.Settings()
    /// `--on-motion save`: the clips' pre-roll, post-roll and limits; nil saves nothing.
    package var clips: MotionClipPlanner.Settings?
    /// The absolute file name pattern (time fields such as `%Y`) clips saved on motion are named
    /// from, at their first picture's wall-clock time.
    package var clipPattern = "motion-%Y-%m-%d_%H-%M-%S.mp4"

    package init() {}
}
