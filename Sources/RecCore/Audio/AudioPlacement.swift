/// Where one chunk of captured sound goes on the session's audio timeline: `AudioClock`'s
/// decision (pure), carried out by Media's `AudioPipeline` with libswresample.
///
/// Units: samples of the output rate (the encoded stream's), except `drop`, which counts the
/// chunk's own (input) samples.
package struct AudioPlacement: Sendable, Equatable {
    /// Silence to write before the chunk: a gap the device left (an overrun, a stall), so that
    /// everything after it stays in sync. Filled with zeros, never by repeating video frames.
    package var silence: Int
    /// Leading samples of the chunk to leave out: the chunk starts before the end of what was
    /// already placed by more than the clock tolerates (the device's time went back).
    package var drop: Int
    /// How many samples more (positive) or fewer (negative) the resampler should make of the
    /// chunk than plain rate conversion would: `swr_set_compensation(delta, distance)` with
    /// `distance` = `compensationDistance`. 0 when the clocks agree.
    package var compensation: Int
    /// The output samples the compensation is spread over (at least the chunk's length, so the
    /// stretch stays far below what an ear hears).
    package var compensationDistance: Int
    /// Set only on the placement that starts the timeline (the first chunk placed): the output
    /// sample, counted from session time 0 at the output rate, at which the chunk's first kept
    /// sample goes. It is the pipeline's first pts (time base 1/output rate) and never negative:
    /// sound from before the first picture is left out with `drop`, and sound that starts more than a
    /// gap after it starts at 0 behind `silence`. nil on every other placement.
    package var start: Int64?

    package init(silence: Int = 0, drop: Int = 0, compensation: Int = 0, compensationDistance: Int = 0,
                start: Int64? = nil) {
        self.silence = silence
        self.drop = drop
        self.compensation = compensation
        self.compensationDistance = compensationDistance
        self.start = start
    }

    /// Nothing to do: the chunk goes on right after the last one, as it is.
    package static let asIs = AudioPlacement()
}
