/// Tells a step in a device's timestamps (samples lost in an overrun, a clock that jumped) from
/// jitter and late chunks, by the residuals of observed times against the fitted line.
///
/// A residual within `outlierLimit` fits. One beyond it is an outlier, left out of the fit.
/// A read stall makes a run of outliers whose lateness drains: the chunks behind it were read
/// at once, so each is a chunk's duration less late. A step makes a run that stays. So a step
/// beyond `gapLimit` is confirmed once the run's last chunks, observed `flatSamples` apart (two
/// outlier limits: a stall drains by more than one over that, jitter included), agree within
/// `outlierLimit`: the step is their median. Any run on one side lasting `confirmSamples` is a
/// step too (a smaller one, or one too noisy to agree): the step is the run's median.
struct StepDetector: Sendable {
    enum Verdict: Equatable {
        case fits
        case outlier
        /// The observations moved by this much (µs; positive = later than the line).
        case step(Double)
    }

    private static let kept = 512
    private var run: [(residual: Double, samples: Int64)] = []
    private var side = 0
    private var runSamples: Int64 = 0

    mutating func judge(_ residual: Double, samples: Int, outlierLimit: Double, gapLimit: Double,
                        flatSamples: Int64, confirmSamples: Int64) -> Verdict {
        guard residual.isFinite else { return .outlier }
        guard abs(residual) > outlierLimit else {
            reset()
            return .fits
        }
        let sign = residual > 0 ? 1 : -1
        if sign != side {
            reset()
            side = sign
        }
        if run.count == Self.kept { run.removeFirst() }
        run.append((residual, Int64(samples)))
        runSamples += Int64(samples)
        if let step = flatStep(outlierLimit: outlierLimit, gapLimit: gapLimit, flatSamples: flatSamples) {
            reset()
            return .step(step)
        }
        guard runSamples >= confirmSamples else { return .outlier }
        let step = Self.median(run.map(\.residual))
        reset()
        return .step(step)
    }

    mutating func reset() {
        run.removeAll(keepingCapacity: true)
        side = 0
        runSamples = 0
    }

    /// The median of the run's last chunks, if they are all beyond the gap limit and agree.
    private func flatStep(outlierLimit: Double, gapLimit: Double, flatSamples: Int64) -> Double? {
        var span: Int64 = 0
        var last: [Double] = []
        for entry in run.reversed() {
            guard abs(entry.residual) > gapLimit else { return nil }
            if !last.isEmpty { span += entry.samples }
            last.append(entry.residual)
            if last.count >= 2, span >= flatSamples {
                guard let low = last.min(), let high = last.max(), high - low <= outlierLimit else { return nil }
                return Self.median(last)
            }
        }
        return nil
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
