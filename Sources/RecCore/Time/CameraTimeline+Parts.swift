extension CameraTimeline {
    /// The offset (session time − camera time, µs) as a function of camera time over one run:
    /// straight lines between breakpoints, one per packet that moved the run's newest camera time,
    /// each no steeper than the slew allows. A packet is placed by its own camera time, so the
    /// offset between any two packets of a stream changes by at most `maxSlew` × their distance,
    /// however the streams interleave. Breakpoints older than `kept` behind the newest are dropped:
    /// a packet that late takes the oldest one kept.
    struct OffsetCurve: Sendable {
        private(set) var points: [(camera: Int64, offset: Double)]
        private static let kept: Int64 = 2_000_000

        init(camera: Int64, offset: Double) {
            points = [(camera, offset)]
        }

        var newest: (camera: Int64, offset: Double) { points[points.count - 1] }

        func offset(at camera: Int64) -> Double {
            var upper = points.count - 1
            if camera >= points[upper].camera { return points[upper].offset }
            while upper > 0, points[upper - 1].camera > camera { upper -= 1 }
            guard upper > 0 else { return points[0].offset }
            let (c0, o0) = points[upper - 1], (c1, o1) = points[upper]
            return o0 + (o1 - o0) * Double(camera - c0) / Double(c1 - c0)
        }

        /// A new newest point (`camera` beyond the newest).
        mutating func append(camera: Int64, offset: Double) {
            points.append((camera, offset))
            if points.count > 256 {
                let horizon = camera.subtractingReportingOverflow(Self.kept)
                let old = points.prefix { $0.camera < (horizon.overflow ? .min : horizon.partialValue) }.count
                if old > 1 { points.removeFirst(old - 1) }
            }
        }

        /// Every point moved by `delta` µs (a stream joining a run after a jump raised it).
        mutating func shift(by delta: Double) {
            for i in points.indices { points[i].offset += delta }
        }
    }

    /// The earliest arrivals against the camera's clock: the minimum of arrival − camera time
    /// (µs) over the last `bins` bins of `binLength` camera µs. Arrivals are late by the network's
    /// delay and never early, so the minimum is the relation with the least delay: a late packet,
    /// a burst of old ones, or jitter raise no minimum.
    struct EarliestArrival: Sendable {
        let binLength: Int64
        let bins: Int64
        /// One minimum per bin, oldest first.
        private var minima: [(bin: Int64, value: Int64)] = []
        /// The minimum over the window; nil before any packet.
        private(set) var minimum: Int64?

        init(window: Int64, bins: Int64 = 20) {
            self.bins = max(1, bins)
            binLength = max(1, window / self.bins)
        }

        mutating func reset() {
            minima.removeAll(keepingCapacity: true)
            minimum = nil
        }

        /// A packet at `camera` (µs since the run's first packet) that arrived `value` µs after
        /// its camera time.
        mutating func add(camera: Int64, value: Int64) {
            let bin = camera >= 0 ? camera / binLength : -1 - (-1 - camera) / binLength
            guard let newest = minima.last?.bin, bin <= newest else {
                minima.append((bin, value))
                let oldest = CameraTimeline.difference(bin, bins - 1)
                var expired = 0
                while minima[expired].bin < oldest { expired += 1 }
                if expired > 0 {
                    minima.removeFirst(expired)
                    minimum = minima.reduce(Int64.max) { min($0, $1.value) }
                } else {
                    minimum = Swift.min(minimum ?? .max, value)
                }
                return
            }
            guard bin > CameraTimeline.difference(newest, bins) else { return }
            var i = minima.count - 1
            while i > 0, minima[i].bin > bin { i -= 1 }
            if minima[i].bin == bin {
                minima[i].value = Swift.min(minima[i].value, value)
            } else {
                minima.insert((bin, value), at: minima[i].bin < bin ? i + 1 : i)
            }
            minimum = Swift.min(minimum ?? .max, value)
        }
    }

    /// One stream's last packet.
    struct StreamState: Sendable {
        var decode: Int64
        var session: Int64
        /// Its last positive step in camera time: what a packet lasts, so a stream that starts a
        /// run after a jump starts no earlier than its last packet's end.
        var step: Int64
        var run: Int
        /// Its last packet's arrival (µs since the session's epoch).
        var arrival: Int64
    }

    static func difference(_ a: Int64, _ b: Int64) -> Int64 {
        let (value, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? (a < b ? .min : .max) : value
    }

    static func sum(_ a: Int64, _ b: Int64) -> Int64 {
        let (value, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b < 0 ? .min : .max) : value
    }

    static func microseconds(_ value: Double) -> Int64 {
        guard value.isFinite else { return value > 0 ? .max : .min }
        if value >= 9.2e18 { return .max }
        if value <= -9.2e18 { return .min }
        return Int64(value.rounded())
    }
}
