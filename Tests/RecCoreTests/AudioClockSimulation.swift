import RecCore

/// A sound card, simulated without threads or sleeping: a clock `skew` off the session clock,
/// chunks of `chunk` samples, each observed with uniform ±`jitter` and, about one chunk in
/// `lateEvery`, a read stall that makes it `lateBy` late (the chunks behind it drain the
/// backlog, one chunk duration each), and optionally a gap: from session time `gapAt` on, the
/// next `gapSeconds` deliver nothing (an overrun losing samples, a suspend; negative: the
/// device's time goes back). Seeded, so every run is the same.
struct SimulatedDevice {
    var inputRate = 48_000
    var outputRate = 48_000
    var chunk = 1_024
    var skew = 0.0
    var seconds = 600.0
    var firstSample = 0.05
    var jitter = 0.005
    var lateEvery = 100
    var lateBy = 0.030
    var gapAt: Double?
    var gapSeconds = 0.0
    var seed: UInt64 = 1

    /// Device samples per session second.
    var trueRate: Double { Double(inputRate) * (1 + skew) }
    var chunkSeconds: Double { Double(chunk) / trueRate }
}

/// Plays a `SimulatedDevice` into an `AudioClock` and carries out every placement the way the
/// pipeline does, arithmetically: the output position advances by the kept samples × output
/// rate / input rate, plus the compensation (pro rata when it is spread over more than the
/// chunk), plus the silence. Each whole session second is a click on the device (the delivered
/// sample captured at that instant); the run records where each lands on the output timeline.
struct ClockRun {
    struct Click {
        var second: Int
        /// Landed time − true time, in seconds.
        var error: Double
        var chunk: Int
    }

    var clicks: [Click] = []
    /// The largest |compensation| / distance asked for.
    var maximumStretch = 0.0
    /// Whether some compensation was spread over fewer samples than its chunk makes.
    var shortDistance = false
    /// The chunks that got silence, and how much.
    var silences: [(chunk: Int, samples: Int)] = []
    var dropped: Int64 = 0
    /// The first chunk after the device's gap.
    var firstAfterGap: Int?
    /// The worst |driftPPM − true drift| from session second 30 on; nil if it was never measured.
    var worstDriftError: Double?
    var clock: AudioClock

    init(_ device: SimulatedDevice, policy: AudioClock.Policy = .standard) {
        clock = AudioClock(outputRate: device.outputRate, inputRate: device.inputRate, policy: policy)
        var random = SeededGenerator(seed: device.seed)
        let ratio = Double(device.outputRate) / Double(device.inputRate)
        var position: Double?
        var delivered = 0.0
        var shift = 0.0
        var gapDone = false
        var lateness = 0.0
        var chunk = 0
        while true {
            var first = device.firstSample + delivered / device.trueRate + shift
            if let at = device.gapAt, !gapDone, first >= at {
                gapDone = true
                firstAfterGap = chunk
                shift = device.gapSeconds
                first += shift
            }
            guard first < device.firstSample + device.seconds else { break }
            if device.lateEvery > 0, Int.random(in: 0..<device.lateEvery, using: &random) == 0 {
                lateness = max(lateness, device.lateBy)
            }
            let noise = device.jitter > 0 ? Double.random(in: -device.jitter...device.jitter, using: &random) : 0
            let observed = Timestamp(seconds: first + noise + lateness)
            lateness = max(0, lateness - device.chunkSeconds)
            let placement = clock.place(observed: observed, samples: device.chunk,
                                        position: position.map { Int64($0.rounded(.down)) })
            if let start = placement.start { position = Double(start) }
            if var at = position {
                at += Double(placement.silence)
                if placement.silence > 0 { silences.append((chunk, placement.silence)) }
                dropped += Int64(placement.drop)
                let kept = Double(device.chunk - placement.drop) * ratio
                var applied = 0.0
                if placement.compensationDistance > 0 {
                    let distance = Double(placement.compensationDistance)
                    maximumStretch = max(maximumStretch, abs(Double(placement.compensation)) / distance)
                    shortDistance = shortDistance || distance < kept.rounded()
                    applied = Double(placement.compensation) * min(1, kept / distance)
                }
                var second = first.rounded(.up)
                while second < first + device.chunkSeconds {
                    let offset = (second - first) * device.trueRate - Double(placement.drop)
                    if offset >= 0 {
                        let landed = at + offset * ratio * (1 + applied / kept)
                        clicks.append(Click(second: Int(second), error: landed / Double(device.outputRate) - second,
                                            chunk: chunk))
                    }
                    second += 1
                }
                position = at + kept + applied
            }
            if first >= 30, let ppm = clock.driftPPM {
                worstDriftError = max(worstDriftError ?? 0, abs(ppm - device.skew * 1e6))
            }
            delivered += Double(device.chunk)
            chunk += 1
        }
    }

    /// The worst |error| of the clicks in `seconds`, leaving out the clicks of `except` chunks.
    func worst(_ seconds: ClosedRange<Int>, except: Set<Int> = []) -> Double {
        clicks.filter { seconds.contains($0.second) && !except.contains($0.chunk) }.map { abs($0.error) }.max() ?? 0
    }

    var lastClick: Click? { clicks.last }

    /// The chunks placed after the gap before the clock confirmed it (they land early by it).
    var unconfirmed: Set<Int> {
        guard let first = firstAfterGap, let filled = silences.first?.chunk, filled > first else { return [] }
        return Set(first..<filled)
    }
    var silence: Int { silences.reduce(0) { $0 + $1.samples } }

    /// A line of figures for the test log (and for docs/TIMESTAMPS.md).
    func report(_ name: String, _ seconds: Int, except: Set<Int> = []) {
        let third = seconds / 3
        func text(_ range: ClosedRange<Int>) -> String {
            clicks.contains { range.contains($0.second) } ? Self.ms(worst(range, except: except)) : "no clicks"
        }
        let parts = [
            "start \(text(2...60))", "middle \(text(third...(2 * third)))", "end \(text((seconds - 60)...seconds))",
            "all \(text(2...seconds))",
            "drift error after 30 s \(worstDriftError.map { "\(Self.round($0, 1)) ppm" } ?? "unmeasured")",
            "stretch \(Self.round(maximumStretch * 100, 3)) %",
            "silence \(silence) in \(silences.count) gaps, dropped \(dropped)",
        ]
        print("AudioClock \(name): worst click error " + parts.joined(separator: ", "))
    }

    static func ms(_ seconds: Double) -> String { "\(round(seconds * 1_000, 2)) ms" }

    static func round(_ value: Double, _ digits: Int) -> Double {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
