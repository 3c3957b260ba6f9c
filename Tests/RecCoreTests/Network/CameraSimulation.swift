import RecCore

/// A network camera, simulated without threads or sleeping: frames captured at 30 fps on the local
/// clock (and AAC sound, 1024 samples at 48 kHz, if `audio`), stamped by a camera clock `skew` off
/// the local one (+0.0003 is 300 ppm fast) from an arbitrary origin, each arriving late by a
/// uniform 0 to `maxDelay`, in order within its stream (one RTP stream each, so the streams
/// interleave by arrival). Optionally a backlog the server sends at once on connect, clock jumps
/// (from local time `at` on, the camera's clock reads `by` seconds more), and an outage after
/// which the camera comes back with its clock started again. Seeded: every run is the same.
struct SimulatedNetworkCamera {
    var skew = 0.0
    var seconds = 60.0
    var fps = 30.0
    var audio = false
    var maxDelay = 0.080
    var seed: UInt64 = 1
    var origin = 7_000.123
    var backlog = 0.0
    var jumps: [(at: Double, by: Double)] = []
    var outage: (at: Double, seconds: Double, origin: Double)?

    struct Packet {
        var stream: StreamID
        var decodeTime: Timestamp
        /// Local arrival, µs since the first packet's arrival.
        var arrival: Int64
        /// When it was really captured on the local clock, µs since the first packet's arrival.
        var captured: Int64
        /// The first packet after the outage: the reader reconnected before it.
        var reconnected = false

        var camera: Int64 { decodeTime.rescaled(to: .microseconds).value }
    }

    func packets() -> [Packet] {
        var random = SeededGenerator(seed: seed)
        var all: [(packet: Packet, arrival: Double, captured: Double)] = []
        var streams: [(StreamID, Double, Rational)] = [(.video, 1 / fps, Rational(1, 90_000))]
        if audio { streams.append((.sound(0), 1_024.0 / 48_000, Rational(1, 48_000))) }
        for (id, period, timeBase) in streams {
            var last = -Double.infinity
            var n = Int((-backlog / period).rounded(.up))
            var sentInBurst = 0
            while Double(n) * period < seconds {
                let t = Double(n) * period
                n += 1
                var clock = origin + t * (1 + skew) + jumps.filter { $0.at <= t }.reduce(0) { $0 + $1.by }
                var reconnected = false
                if let outage {
                    if t >= outage.at && t < outage.at + outage.seconds { continue }
                    if t >= outage.at + outage.seconds {
                        clock = outage.origin + (t - outage.at - outage.seconds) * (1 + skew)
                        reconnected = last < outage.at + outage.seconds
                    }
                }
                var arrival = t + Double.random(in: 0..<maxDelay, using: &random)
                if t < 0 {
                    arrival = 0.000_5 * Double(sentInBurst)
                    sentInBurst += 1
                }
                arrival = max(arrival, last)
                last = arrival
                let ticks = Int64((clock / timeBase.doubleValue).rounded())
                let packet = Packet(stream: id, decodeTime: Timestamp(value: ticks, timeBase: timeBase), arrival: 0,
                                    captured: 0, reconnected: reconnected)
                all.append((packet, arrival, t))
            }
        }
        all.sort { $0.arrival < $1.arrival }
        let epoch = all.first?.arrival ?? 0
        var sawReconnect = false
        return all.map { entry in
            var packet = entry.packet
            packet.arrival = Int64(((entry.arrival - epoch) * 1e6).rounded())
            packet.captured = Int64(((entry.captured - epoch) * 1e6).rounded())
            if packet.reconnected {
                packet.reconnected = !sawReconnect
                sawReconnect = true
            }
            return packet
        }
    }
}

/// Plays a simulated camera into a `CameraTimeline`, calling `restart()` where the reader would
/// (before the first packet after an outage), and keeps what each packet was given.
struct TimelineRun {
    struct Placed {
        var packet: SimulatedNetworkCamera.Packet
        var session: Int64
        var runs: Int
        var lead: Int64
        /// Session time − capture time (µs): how far the timeline is from the local clock here.
        var error: Int64 { session - packet.captured }
    }

    var placed: [Placed] = []
    var timeline: CameraTimeline
    /// Each new run, with the index of the packet that began it.
    var newRuns: [(index: Int, event: CameraTimeline.Event?)] = []

    init(_ camera: SimulatedNetworkCamera, timeline: CameraTimeline = CameraTimeline()) {
        self.timeline = timeline
        let packets = camera.packets()
        placed.reserveCapacity(packets.count)
        for packet in packets {
            if packet.reconnected { self.timeline.restart() }
            let runs = self.timeline.runs
            let offset = self.timeline.place(stream: packet.stream, decodeTime: packet.decodeTime, arrival: .microseconds(packet.arrival))
            if self.timeline.runs != runs { newRuns.append((placed.count, self.timeline.lastEvent)) }
            placed.append(Placed(packet: packet, session: packet.camera + offset.value, runs: self.timeline.runs,
                                 lead: self.timeline.lead.value))
        }
    }

    func of(_ stream: StreamID) -> [Placed] { placed.filter { $0.packet.stream == stream } }

    /// The largest |Δsession − Δcamera| − maxSlew × Δcamera between consecutive packets of each
    /// stream within a run (µs): at most 1 (rounding to µs) when no interval is stretched beyond the slew.
    func worstStretch(maxSlew: Double = 0.000_5) -> Double {
        var worst = -Double.infinity
        for stream in Set(placed.map(\.packet.stream)) {
            let mine = of(stream)
            for (a, b) in zip(mine, mine.dropFirst()) where a.runs == b.runs {
                let dc = Double(b.packet.camera - a.packet.camera)
                guard dc >= 0 else { continue }
                worst = max(worst, abs(Double(b.session - a.session) - dc) - maxSlew * dc)
            }
        }
        return worst
    }

    /// Whether every stream's session times never go back.
    var monotonic: Bool {
        Set(placed.map(\.packet.stream)).allSatisfy { stream in
            let mine = of(stream)
            return zip(mine, mine.dropFirst()).allSatisfy { $0.session <= $1.session }
        }
    }

    /// The packets captured within `seconds` (local time, since the first arrival).
    func during(_ seconds: ClosedRange<Double>) -> [Placed] {
        placed.filter { seconds.contains(Double($0.packet.captured) / 1e6) }
    }
}
