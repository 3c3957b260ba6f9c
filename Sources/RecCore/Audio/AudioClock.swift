/// Turns a sound card's chunks — each with the observed session time of its first sample and a
/// sample count — into one audio timeline that never drifts from the camera's (docs/TIMESTAMPS.md,
/// "Sound: one timeline, no drift"). Pure: the audio thread owns one and Media's `AudioPipeline`
/// carries out its `AudioPlacement`s with libswresample.
///
/// The model. The device's samples are numbered (the device index: samples delivered, plus the
/// samples a step says were lost). A least-squares line of observed time against device index,
/// over the last 30 s of samples, is the device's clock as the session clock sees it: its slope
/// is the device's true rate (`driftPPM`), its value at a chunk's first sample is where the
/// chunk belongs. Least squares over seconds of chunks averages ±5 ms of jitter down to a
/// fraction of a millisecond and needs no loop gains (a PI loop needs two, and lags a change
/// in rate); observations beyond `outlierLimit` (late chunks) are left out of it.
/// Each chunk then asks the resampler for `compensation`: the drift the line predicts over the
/// chunk, plus a share of the error between where the chunk belongs and the position the
/// pipeline says it will land at (that error decays over `settle`), never more than
/// `maximumStretch` of the samples it is spread over. Steps (`StepDetector`) move the device
/// index: a gap beyond `gapThreshold` is filled with silence, an overlap beyond it is dropped.
///
/// Units: `observed` in any time base (rescaled to µs, saturating); `samples` and `drop` in
/// input samples; `position`, `silence`, `compensation`, `compensationDistance` and `start` in
/// output samples, counted from session time 0 (time base 1/`outputRate`).
package struct AudioClock: Sendable {
    package let outputRate: Int
    package let inputRate: Int
    package let policy: Policy

    /// Silences inserted for gaps, and the output samples they hold.
    package private(set) var gaps = 0
    package private(set) var gapSamples: Int64 = 0
    /// Leading input samples dropped because they overlapped what was already placed.
    package private(set) var droppedSamples: Int64 = 0
    /// Steps beyond `Policy.maximumJump`: timestamps that broke, after which the line restarted.
    package private(set) var clockBreaks = 0

    /// `driftPPM` stays nil until the fit's window holds this much sound (seconds): a slope's
    /// standard error grows as the window's span to the −1.5; with ±5 ms of jitter in
    /// 1024-sample chunks it is about 45 ppm at 10 s, and 9 ppm over the full 30 s.
    package static let measuredAfter = 10.0

    private var fit: DriftFit
    private var steps = StepDetector()
    /// The device index of the next chunk's first sample.
    private var next: Int64 = 0
    private var started = false
    /// Whether the last chunk was dropped whole: the overlap goes on into this one.
    private var overlapping = false
    /// Output samples the line's target is moved back by, after clock breaks.
    private var offset = 0.0
    /// Output samples per input sample.
    private let ratio: Double

    package init(outputRate: Int, inputRate: Int, policy: Policy = .standard) {
        self.outputRate = max(1, outputRate)
        self.inputRate = max(1, inputRate)
        self.policy = policy
        ratio = Double(self.outputRate) / Double(self.inputRate)
        fit = DriftFit(inputRate: self.inputRate, window: policy.window)
    }

    /// The device's rate against the session clock, in parts per million: positive when it
    /// delivers more samples per session second than its nominal rate. nil until measured.
    package var driftPPM: Double? {
        fit.drift(afterSpan: Int64(Self.measuredAfter * Double(inputRate))).map { $0 * 1e6 }
    }

    /// Where the chunk whose first sample was observed at `observed` goes. `samples` is its
    /// length in input samples; `position` is where the pipeline's next output sample will land
    /// (output samples since session time 0, what the resampler holds included), nil while
    /// nothing has been placed. Then the chunk starts the timeline at its observed time: the
    /// placement's `start` is the pipeline's first pts, and sound before session time 0 is
    /// dropped (a chunk entirely before it is dropped whole, and the next one starts instead);
    /// a chunk later than a gap after session time 0 starts it at 0 with silence before it.
    /// A zero-length chunk changes nothing.
    package mutating func place(observed: Timestamp, samples: Int, position: Int64?) -> AudioPlacement {
        guard samples > 0 else { return .asIs }
        let time = Double(observed.rescaled(to: .microseconds).value)
        guard started, let position else { return begin(at: time, samples: samples) }
        var index = next
        var lost: Int64 = 0
        let predicted = fit.time(at: index) ?? time
        switch steps.judge(time - predicted, samples: samples, outlierLimit: policy.outlierLimit * 1e6,
                           gapLimit: hardLimit(samples) * 1e6,
                           flatSamples: Int64(2 * policy.outlierLimit * Double(inputRate)),
                           confirmSamples: Int64(policy.stepConfirmation * Double(inputRate))) {
        case .fits:
            fit.add(x: index, y: time)
        case .outlier:
            break
        case .step(let step) where abs(step) > policy.maximumJump * 1e6:
            clockBreaks += 1
            offset += (time - predicted) * Double(outputRate) / 1e6
            fit = freshFit
            fit.add(x: index, y: time)
        case .step(let step):
            let shift = Self.int64(step / (fit.line?.slope ?? fit.nominalSlope))
            index = Self.bounded(index, plus: shift)
            if step > hardLimit(samples) * 1e6 { lost = shift }
            fit.add(x: index, y: time)
        }
        next = Self.bounded(index, plus: Int64(samples))
        guard policy.corrects else {
            let silence = Self.int(Double(lost) * ratio)
            if silence > 0 { noteGap(silence) }
            return AudioPlacement(silence: silence)
        }
        return corrected(index: index, samples: samples, position: position)
    }

    /// The first chunk: the line starts at its observation and the timeline at its time, or at
    /// session time 0 with silence up to the chunk when the sound starts later than a gap
    /// (`hardLimit`): the sound then covers the pictures from the first, and what is missing is
    /// counted as a gap like any other.
    private mutating func begin(at time: Double, samples: Int) -> AudioPlacement {
        let early = time < 0 ? min(samples, Self.int((-time * Double(inputRate) / 1e6).rounded(.up))) : 0
        guard early < samples else { return AudioPlacement(drop: samples) }
        fit = freshFit
        steps.reset()
        offset = 0
        overlapping = false
        fit.add(x: 0, y: time)
        next = Int64(samples)
        started = true
        let start = max(0, Self.int64(target(Int64(early))))
        guard Double(start) > hardLimit(samples) * Double(outputRate) else { return AudioPlacement(drop: early, start: start) }
        noteGap(Self.int(Double(start)))
        return AudioPlacement(silence: Self.int(Double(start)), drop: early, start: 0)
    }

    /// Silence or a drop for an error beyond the threshold, then compensation for the rest.
    private mutating func corrected(index: Int64, samples: Int, position: Int64) -> AudioPlacement {
        var placement = AudioPlacement()
        var first = index
        var error = target(first) - Double(position)
        let limit = hardLimit(samples) * Double(outputRate)
        if error > limit {
            placement.silence = Self.int(error)
            error -= Double(placement.silence)
            noteGap(placement.silence)
        } else if error < -limit || (overlapping && error < 0) {
            placement.drop = min(samples, Self.int(-error / ratio))
            droppedSamples += Int64(placement.drop)
            first += Int64(placement.drop)
            error = target(first) - Double(position)
        }
        overlapping = placement.drop == samples
        let kept = samples - placement.drop
        guard kept > 0, policy.maximumStretch > 0 else { return placement }
        let keptOut = Double(kept) * ratio
        let drift = target(first + Int64(kept)) - target(first) - keptOut
        let share = policy.settle > 0 ? min(1, keptOut / (policy.settle * Double(outputRate))) : 1
        // Spread over the chunk, or over more if the chunk is too short for one sample within the cap.
        let distance = max(keptOut.rounded(), (1 / policy.maximumStretch).rounded(.up))
        let cap = (policy.maximumStretch * distance).rounded(.down)
        let asked = ((drift + error * share) / keptOut * distance).rounded()
        let compensation = Self.int(max(-cap, min(cap, asked)))
        if compensation != 0 {
            placement.compensation = compensation
            placement.compensationDistance = Self.int(distance)
        }
        return placement
    }

    private var freshFit: DriftFit { DriftFit(inputRate: inputRate, window: policy.window) }

    /// Where device sample `index` belongs on the output timeline, as the line says.
    private func target(_ index: Int64) -> Double {
        (fit.time(at: index) ?? 0) * Double(outputRate) / 1e6 - offset
    }

    /// Seconds: errors and steps beyond this are gaps or overlaps, not jitter.
    private func hardLimit(_ samples: Int) -> Double {
        max(policy.gapThreshold, 2 * Double(samples) / Double(inputRate))
    }

    private mutating func noteGap(_ silence: Int) {
        gaps += 1
        gapSamples = gapSamples.addingReportingOverflow(Int64(silence)).overflow ? .max : gapSamples + Int64(silence)
    }

    /// Device indices stay within ±2^52, where a Double holds them exactly.
    private static let indexLimit: Int64 = 1 << 52

    private static func bounded(_ index: Int64, plus delta: Int64) -> Int64 {
        func clamp(_ value: Int64) -> Int64 { min(max(value, -indexLimit), indexLimit) }
        return clamp(clamp(index) + clamp(delta))
    }

    /// Rounded to the nearest whole number, saturating (NaN is 0): bad input never traps.
    private static func int64(_ value: Double) -> Int64 {
        guard !value.isNaN else { return 0 }
        let rounded = value.rounded()
        if rounded >= 0x1p62 { return 1 << 62 }
        if rounded <= -0x1p62 { return -(1 << 62) }
        return Int64(rounded)
    }

    private static func int(_ value: Double) -> Int { Int(int64(value)) }
}
