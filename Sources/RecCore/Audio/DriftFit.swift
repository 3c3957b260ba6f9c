/// The sound card's clock against the session clock: a least-squares line of observed session
/// time (µs) against device sample index, over the last `capacity` bins of samples.
///
/// Points are summed into bins of `binLength` device samples, so a window of 30 s costs 60 bins
/// however small the chunks are; the line is refitted when a bin closes (and at every point
/// while the first bin fills). Each bin keeps exact integer anchors and Double sums of offsets
/// from them, so an hour-long session loses no precision. Until the window spans
/// `minimumSpan` samples the slope is the nominal one and only the offset is fitted: over a
/// second of ±5 ms jitter a slope is noise.
struct DriftFit: Sendable {
    /// The fitted line: `time(x) = meanY + slope × (x − anchor − meanX)`, in µs.
    struct Line: Sendable {
        var anchor: Int64
        var meanX: Double
        var meanY: Double
        var slope: Double
        /// Device samples between the oldest and the newest point in the window.
        var span: Int64

        func time(at x: Int64) -> Double {
            let dx = x.subtractingReportingOverflow(anchor)
            return meanY + slope * ((dx.overflow ? 0 : Double(dx.partialValue)) - meanX)
        }
    }

    private struct Bin: Sendable {
        var x0: Int64
        var y0: Double
        var lowX: Int64
        var highX: Int64
        var n = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0

        init(x: Int64, y: Double) {
            x0 = x
            y0 = y
            lowX = x
            highX = x
        }

        mutating func add(x: Int64, y: Double) {
            let dx = Double(x - x0), dy = y - y0
            n += 1
            sx += dx
            sy += dy
            sxx += dx * dx
            sxy += dx * dy
            lowX = min(lowX, x)
            highX = max(highX, x)
        }
    }

    /// µs per device sample at the device's nominal rate.
    let nominalSlope: Double
    let binLength: Int64
    let capacity: Int
    let minimumSpan: Int64
    /// The slopes believed: the nominal one ± `maximumDrift`. A fit outside is garbage.
    let slopes: ClosedRange<Double>
    private var closed: [Bin] = []
    private var open: Bin?
    private(set) var line: Line?

    init(inputRate: Int, window: Double, binSeconds: Double = 0.5, minimumSpanSeconds: Double = 1,
         maximumDrift: Double = 0.05) {
        nominalSlope = 1e6 / Double(inputRate)
        binLength = max(1, Int64(binSeconds * Double(inputRate)))
        capacity = max(2, Int((window / binSeconds).rounded()))
        minimumSpan = Int64(minimumSpanSeconds * Double(inputRate))
        slopes = nominalSlope / (1 + maximumDrift)...nominalSlope / (1 - maximumDrift)
    }

    /// The observed time of device sample `x`, as the line says (µs); nil before any point.
    func time(at x: Int64) -> Double? { line?.time(at: x) }

    /// The device's rate against the session clock, as a fraction: +0.002 is 0.2 % fast. nil
    /// until the window spans `span` device samples.
    func drift(afterSpan span: Int64) -> Double? {
        guard let line, line.span >= max(span, minimumSpan) else { return nil }
        return nominalSlope / line.slope - 1
    }

    mutating func add(x: Int64, y: Double) {
        if var bin = open, abs(x - bin.x0) < binLength {
            bin.add(x: x, y: y)
            open = bin
            if closed.isEmpty { refit() }
            return
        }
        if let bin = open {
            closed.append(bin)
            if closed.count > capacity { closed.removeFirst() }
        }
        var bin = Bin(x: x, y: y)
        bin.add(x: x, y: y)
        open = bin
        refit()
    }

    /// Least squares over every bin, in coordinates centred on the newest bin's anchor.
    private mutating func refit() {
        guard let newest = open else { return }
        var n = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0
        var low = newest.lowX, high = newest.highX
        for bin in closed + [newest] {
            let ox = Double(bin.x0 - newest.x0), oy = bin.y0 - newest.y0
            n += bin.n
            sx += bin.sx + bin.n * ox
            sy += bin.sy + bin.n * oy
            sxx += bin.sxx + 2 * ox * bin.sx + bin.n * ox * ox
            sxy += bin.sxy + ox * bin.sy + oy * bin.sx + bin.n * ox * oy
            low = min(low, bin.lowX)
            high = max(high, bin.highX)
        }
        let meanX = sx / n, meanY = sy / n
        let varianceX = sxx / n - meanX * meanX
        let span = high - low
        var slope = nominalSlope
        if span >= minimumSpan, varianceX > 0 {
            let fitted = (sxy / n - meanX * meanY) / varianceX
            if fitted.isFinite, slopes.contains(fitted) { slope = fitted }
        }
        line = Line(anchor: newest.x0, meanX: meanX, meanY: newest.y0 + meanY, slope: slope, span: span)
    }
}
