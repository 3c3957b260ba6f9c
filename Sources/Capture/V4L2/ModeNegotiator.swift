import RecCore
import VideoDevices

/// Chooses a camera mode from what the camera offers: a pure function, so every rule is tested
/// without a device.
///
/// Size first: the requested size exactly, else the largest size not above it (else the smallest
/// offered), with a note naming what the camera offers. Then the format: among those that reach
/// the requested rate at that size, raw (NV12, YUYV) before compressed (MJPEG), since raw costs no
/// decode; if none reaches it, the fastest (on USB webcams, MJPEG at high resolutions). Then the
/// slowest frame interval that still reaches the rate.
package enum ModeNegotiator {
    /// Rates within this factor count as reached (30000/1001 reaches 30).
    static let tolerance = 0.995

    package static func choose(_ request: CameraRequest, from formats: [CameraFormat]) throws(RecError) -> NegotiatedMode {
        let usable = try usableFormats(request, formats)
        var notes: [String] = []
        let wantedRate = request.frameRate?.doubleValue
        let size = try chooseSize(request, usable, &notes)

        let offers = usable.compactMap { f in intervals(of: f, at: size).map { (format: f, intervals: $0) } }
        let reaching = offers.filter { offer in wantedRate.map { offer.intervals.maxRate >= $0 * tolerance } ?? true }
        let chosen: (format: CameraFormat, intervals: FrameIntervals)
        if wantedRate != nil, let pick = preferred(reaching) {
            chosen = pick
        } else {
            let best = offers.map(\.intervals.maxRate).max() ?? 0
            guard let pick = preferred(offers.filter { $0.intervals.maxRate >= best * tolerance }) else {
                throw .runtime("this camera reports no frame rate at \(size); try another --size or camera")
            }
            chosen = pick
            if let wantedRate, best > 0 {
                notes.append("at \(size) this camera reaches at most \(formatRate(best)) fps, not \(formatRate(wantedRate)); "
                             + "recording at \(formatRate(best)) fps — try a smaller --size for a higher rate")
            }
        }
        let interval = chooseInterval(request.frameRate, chosen.intervals)
        if let asked = request.frameRate, let wantedRate, abs(interval.inverted.doubleValue - wantedRate) > wantedRate * (1 - tolerance),
           interval.inverted.doubleValue >= wantedRate * tolerance {
            notes.append("this camera has no \(formatRate(asked.doubleValue)) fps at \(size); using \(formatRate(interval.inverted.doubleValue)) fps")
        }
        return NegotiatedMode(mode: CameraMode(fourcc: chosen.format.fourcc, size: size, interval: interval), notes: notes)
    }

    /// The formats rec can read, narrowed to the requested one.
    static func usableFormats(_ request: CameraRequest, _ formats: [CameraFormat]) throws(RecError) -> [CameraFormat] {
        let offered = formats.map(\.fourcc.description).joined(separator: ", ")
        let readable = formats.filter(\.fourcc.isSupported)
        guard let wanted = request.pixelFormat else {
            guard !formats.isEmpty else {
                throw .runtime("this camera offers no video formats (an empty loopback device, or a node that needs setting up "
                               + "first); choose another --source (see `rec devices`)")
            }
            guard !readable.isEmpty else {
                throw .runtime("this camera offers only \(offered); rec reads YUYV, NV12 and MJPEG")
            }
            return readable
        }
        let matching = formats.filter { $0.fourcc == wanted || ($0.fourcc.isJPEG && wanted.isJPEG) }
        guard !matching.isEmpty else {
            let hint = readable.first.map { " — try --pixel-format \($0.fourcc)" } ?? ""
            throw .usage("this camera has no \(wanted) format; it offers \(offered)\(hint)")
        }
        guard matching.contains(where: \.fourcc.isSupported) else {
            throw .usage("rec cannot read \(wanted) frames; it reads YUYV, NV12 and MJPEG")
        }
        return matching.filter(\.fourcc.isSupported)
    }

    static func chooseSize(_ request: CameraRequest, _ formats: [CameraFormat], _ notes: inout [String]) throws(RecError) -> FrameSize {
        let offered = Set(formats.flatMap { candidateSizes($0, near: request.size) }).sorted(by: >)
        guard let largest = offered.first else { throw .runtime("this camera reports no frame sizes; try another camera") }
        guard let wanted = request.size else {
            guard let rate = request.frameRate?.doubleValue else { return largest }
            return offered.first { size in
                formats.contains { intervals(of: $0, at: size).map { $0.maxRate >= rate * tolerance } ?? false }
            } ?? largest
        }
        if offered.contains(wanted) { return wanted }
        let fallback = offered.first { $0.width <= wanted.width && $0.height <= wanted.height } ?? offered.last ?? largest
        let message = "this camera has no \(wanted); it offers \(offeredSizes(formats)) — try --size \(fallback)"
        if request.exactSize { throw .usage(message) }
        notes.append(message)
        return fallback
    }

    /// The sizes a format offers; for a range, the requested size snapped into it, and the largest.
    static func candidateSizes(_ format: CameraFormat, near wanted: FrameSize?) -> [FrameSize] {
        switch format.sizes {
        case .discrete(let modes):
            return modes.map(\.size)
        case .stepwise(let min, let max, let step, _):
            guard min.width <= max.width, min.height <= max.height else { return [] }
            guard let wanted else { return [max] }
            func snap(_ v: Int, _ lo: Int, _ hi: Int, _ s: Int) -> Int {
                let clamped = Swift.min(Swift.max(v, lo), hi)
                return lo + (clamped - lo) / Swift.max(s, 1) * Swift.max(s, 1)
            }
            return [FrameSize(width: snap(wanted.width, min.width, max.width, step.width),
                              height: snap(wanted.height, min.height, max.height, step.height)), max]
        }
    }

    /// The intervals a format offers at a size, or nil if it does not offer the size.
    static func intervals(of format: CameraFormat, at size: FrameSize) -> FrameIntervals? {
        switch format.sizes {
        case .discrete(let modes):
            return modes.first { $0.size == size }?.intervals
        case .stepwise(let min, let max, let step, let intervals):
            guard min.width <= max.width, min.height <= max.height else { return nil }
            let fits = (min.width...max.width).contains(size.width) && (min.height...max.height).contains(size.height)
                && (size.width - min.width) % Swift.max(step.width, 1) == 0
                && (size.height - min.height) % Swift.max(step.height, 1) == 0
            return fits ? intervals : nil
        }
    }

    /// Raw formats in preference order, then compressed ones.
    static func preferred(_ offers: [(format: CameraFormat, intervals: FrameIntervals)]) -> (format: CameraFormat, intervals: FrameIntervals)? {
        let order = FourCC.raw + FourCC.compressed
        let rank = { (offer: (format: CameraFormat, intervals: FrameIntervals)) in order.firstIndex(of: offer.format.fourcc) ?? order.count }
        return offers.min { rank($0) < rank($1) }
    }

    /// The slowest interval that reaches the rate, else the fastest; the fastest if no rate asked.
    static func chooseInterval(_ rate: Rational?, _ intervals: FrameIntervals) -> Rational {
        let fallback = rate?.inverted ?? Rational(1, 30)
        switch intervals {
        case .discrete(let list):
            guard let fastest = list.min(by: { $0.doubleValue < $1.doubleValue }) else { return fallback }
            guard let wanted = rate?.doubleValue else { return fastest }
            let reaching = list.filter { 1 / $0.doubleValue >= wanted * tolerance }
            return reaching.max { $0.doubleValue < $1.doubleValue } ?? fastest
        case .stepwise(let min, let max, _):
            guard rate != nil else { return min }
            if fallback.doubleValue < min.doubleValue { return min }
            if fallback.doubleValue > max.doubleValue { return max }
            return fallback
        }
    }

    /// "1280x720 and 640x480", "64x64 to 1920x1080 in steps of 16x8".
    static func offeredSizes(_ formats: [CameraFormat]) -> String {
        var sizes = Set<FrameSize>()
        var ranges: [String] = []
        for format in formats {
            switch format.sizes {
            case .discrete(let modes): sizes.formUnion(modes.map(\.size))
            case .stepwise(let min, let max, let step, _):
                let range = step == FrameSize(width: 1, height: 1) ? "any size from \(min) to \(max)" : "\(min) to \(max) in steps of \(step)"
                if !ranges.contains(range) { ranges.append(range) }
            }
        }
        return list(sizes.sorted(by: >).map(\.description) + ranges)
    }

    /// "a", "a and b", "a, b and c".
    static func list(_ items: [String]) -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + last
    }
}
