extension AudioClock {
    /// The thresholds and caps of the clock model. Times in seconds.
    package struct Policy: Sendable, Equatable {
        /// Whether drift and small errors are corrected. Off, every chunk goes right after the
        /// last with no compensation and no drops; only gaps the step detector finds are filled.
        package var corrects: Bool
        /// The most the resampler may stretch or squeeze sound, as a fraction of the samples the
        /// compensation is spread over: 0.005 is 0.5 %, 8.6 cents of pitch while it lasts, at
        /// the edge of what trained ears tell apart between two steady tones, and 5000 ppm of
        /// drift followed, where sound cards' crystals are rated at tens to a few hundred.
        /// FFmpeg's `aresample=async=N` caps the same way, at N samples per second
        /// (`async=1000` at 48 kHz is 2 %). Drift beyond the cap is held by silence and drops.
        package var maximumStretch: Double
        /// An error beyond this (or two chunks, if longer) is fixed at once: silence before the
        /// chunk when the sound is late (the device lost samples), dropped leading samples when
        /// it overlaps what was placed. Anything smaller is left to compensation: no clicks.
        package var gapThreshold: Double
        /// Observations further than this from the fitted line are left out of the fit: a late
        /// chunk. Three times the ±5 ms of jitter a sound server shows.
        package var outlierLimit: Double
        /// A run of outliers on one side lasting this long is a step (the device's time moved),
        /// not lateness. Beyond `gapThreshold`, chunks that agree within `outlierLimit` over
        /// twice `outlierLimit` are enough: a read stall's lateness drains faster than that.
        package var stepConfirmation: Double
        /// The fit's window: the line is fitted to the last this-many seconds of samples.
        package var window: Double
        /// How long a small error takes to correct (the proportional loop's time constant),
        /// as far as `maximumStretch` allows.
        package var settle: Double
        /// A step larger than this is a broken timestamp, not a gap: the line restarts from the
        /// new observations and the sound goes on where it was (`clockBreaks`).
        package var maximumJump: Double

        package init(corrects: Bool = true, maximumStretch: Double = 0.005, gapThreshold: Double = 0.1,
                    outlierLimit: Double = 0.015, stepConfirmation: Double = 0.5, window: Double = 30,
                    settle: Double = 1, maximumJump: Double = 3_600) {
            self.corrects = corrects
            self.maximumStretch = maximumStretch
            self.gapThreshold = gapThreshold
            self.outlierLimit = outlierLimit
            self.stepConfirmation = stepConfirmation
            self.window = window
            self.settle = settle
            self.maximumJump = maximumJump
        }

        /// Drift-free placement: the defaults above.
        package static let standard = Policy()
        /// No correction (only gaps filled): what a recorder without a clock model does, so a
        /// test can show sync failing without it.
        package static let uncorrected = Policy(corrects: false)
    }
}
