/// Places a network camera's packets on the session timeline (docs/TIMESTAMPS.md, "Network
/// cameras"). Pure: the camera's reader owns one and adds the offset it returns to each packet.
///
/// The camera's timestamps say how far apart its frames are; its clock may be hundreds of ppm off
/// the local one, and arrival times carry the network's delay and jitter. So, after Moonfire NVR
/// (design/time.md): a packet's session time is its camera time plus an offset shared by all the
/// camera's streams (they share one clock), and the offset follows the local clock, but moves by
/// at most `maxSlew` (500 ppm) of the camera time elapsed: no interval is stretched or shrunk by
/// more than that, and a camera off by less is followed.
///
/// What it follows is the earliest arrivals: the minimum of arrival − camera time over the last
/// `window` (10 s) of camera time. A packet is never early, so the least delayed ones say when the
/// camera sent; jitter and late packets raise no minimum. The first packet is session time 0,
/// whatever its stream; the minimum over the run's first `window` is then the reference, and the
/// offset follows how the minimum moves from it. So the first packet's own lateness (up to a
/// connect burst: a server sending seconds of backlog at once) stays a constant `lead` instead of
/// being slewed out over an hour; `lead` says how far session time runs ahead of the local clock.
///
/// Jumps are judged per stream on its own camera times: a step back of more than
/// `backwardTolerance`, or forward of more than `forwardJumpLimit`, or forward by more than
/// `stepTolerance` beyond the time that passed between the two packets' arrivals (the camera's
/// clock stepped, as libavformat's does when the first sender report re-times a stream joined
/// mid-way; a camera that really paused sends nothing meanwhile), unless it lands where the other
/// streams have carried the run's clock (that stream only paused), starts a new run, placed at the
/// packet's arrival (never before the end of what that stream was given), and the other streams
/// follow the new offset without being counted as jumps: each joins the run when its camera time
/// comes near the run's (their packets from before the jump, still interleaved, keep the old
/// offset). `restart()` (a reconnect) starts a new run at the next packet's arrival. Within a
/// stream, session times never go backwards.
package struct CameraTimeline: Sendable {
    package enum Event: Sendable, Equatable {
        /// The camera's clock jumped forward by this much (beyond `forwardJumpLimit`).
        case jumpedForward(Timestamp)
        /// The camera's clock went back by this much (a positive amount, beyond `backwardTolerance`).
        case jumpedBack(Timestamp)
        /// `restart()` was called (a reconnect).
        case restarted
    }

    package let maxSlew: Double
    package let forwardJumpLimit: Timestamp
    package let backwardTolerance: Timestamp
    /// How much further a stream's camera time may move than its arrivals did before the step is
    /// a jump (1 s: a connect burst moves camera time by a frame per packet while nothing passes).
    package let stepTolerance: Timestamp
    /// The camera time over which the earliest arrival is taken.
    package let window: Timestamp

    /// 0 before the first packet, 1 after it; one more at each jump and each restart.
    package private(set) var runs = 0
    /// How the current run began; nil for the first run.
    package private(set) var lastEvent: Event?

    private let forwardLimit: Int64
    private let backwardLimit: Int64
    private let stepLimit: Int64
    private let windowLength: Int64
    /// Each stream's state, by its place in `streamIDs` (two streams: a search of the list is
    /// cheaper than hashing for every packet).
    private var streamIDs: [StreamID] = []
    private var streams: [StreamState] = []
    private var curve = OffsetCurve(camera: 0, offset: 0)
    /// The run before this one, for packets still on its clock (only after a jump).
    private var previous: OffsetCurve?
    private var earliest: EarliestArrival
    /// The run's first camera time, and its offset then (plus any raise for a stream joining).
    private var runStart: Int64 = 0
    private var base = 0.0
    /// The earliest arrival over the run's first window (frozen when it ends), and the minimum so far.
    private var reference: Int64?
    private var firstWindowMinimum = Int64.max
    private var restartPending = false

    package init(maxSlew: Double = 0.000_5, forwardJumpLimit: Timestamp = .microseconds(10_000_000),
                backwardTolerance: Timestamp = .microseconds(500_000), stepTolerance: Timestamp = .microseconds(1_000_000),
                window: Timestamp = .microseconds(10_000_000)) {
        self.maxSlew = max(0, maxSlew)
        self.forwardJumpLimit = forwardJumpLimit
        self.backwardTolerance = backwardTolerance
        self.stepTolerance = stepTolerance
        self.window = window
        forwardLimit = max(0, forwardJumpLimit.rescaled(to: .microseconds).value)
        backwardLimit = max(0, backwardTolerance.rescaled(to: .microseconds).value)
        stepLimit = max(0, stepTolerance.rescaled(to: .microseconds).value)
        windowLength = max(1, window.rescaled(to: .microseconds).value)
        earliest = EarliestArrival(window: windowLength)
    }

    /// The correction applied so far in this run relative to the camera's own clock, in parts per
    /// million: positive when session time runs faster than the camera's (a slow camera).
    package var slewPPM: Double {
        let elapsed = Self.difference(curve.newest.camera, runStart)
        return elapsed > 0 ? (curve.newest.offset - base) / Double(elapsed) * 1e6 : 0
    }

    /// How much later than the least delay seen (the minimum over the window) the last packet
    /// placed on the run's curve arrived, in microseconds: near 0 for a packet read as soon as
    /// it came, more for one read from a backlog (`ReadPacing`).
    package private(set) var lateness: Int64 = 0

    /// Whether the run has passed its first `window`, whose least delay is its reference: until
    /// then a run's start (the session's, a jump's, a reconnect's) is still being measured.
    package var isSettled: Bool { reference != nil }

    /// How far the session timeline runs ahead of the local clock now (µs): a packet at session
    /// time S would have arrived, with the least delay seen, at local time S − lead. The run's
    /// first packet's lateness, less what the slew has taken back; negative when the camera is
    /// slower than the slew can follow. Zero before the first packet.
    package var lead: Timestamp {
        guard let minimum = earliest.minimum else { return .zero }
        return .microseconds(Self.microseconds(curve.newest.offset - Double(minimum)))
    }

    /// One packet: its decode time on the camera's clock (any origin, any time base; monotonic per
    /// stream while the camera behaves) and its arrival on the local monotonic clock, in
    /// microseconds since the session's epoch (the first packet's arrival is 0). Returns the
    /// offset (microseconds) to add to the packet's pts and dts, so that its session time is
    /// decodeTime + offset.
    package mutating func place(stream: StreamID, decodeTime: Timestamp, arrival: Timestamp) -> Timestamp {
        let camera = decodeTime.rescaled(to: .microseconds).value
        let arrived = arrival.rescaled(to: .microseconds).value
        let index = streamIDs.firstIndex(of: stream)
        let state = index.map { streams[$0] }
        var placed: (session: Int64, run: Int)
        if runs == 0 {
            begin(camera: camera, offset: -Double(camera), event: nil)
            placed = (onCurve(camera, arrived: arrived), runs)
        } else if restartPending {
            placed = (startRun(state, camera: camera, arrived: arrived, event: .restarted), runs)
        } else if let state, state.run == runs {
            let step = Self.difference(camera, state.decode)
            if let jump = jump(step, arrived: Self.difference(arrived, state.arrival)), !(step > 0 && isNear(camera)) {
                placed = (startRun(state, camera: camera, arrived: arrived, event: jump), runs)
            } else {
                placed = (max(state.session, onCurve(camera, arrived: arrived)), runs)
            }
        } else {
            placed = join(state, camera: camera, arrived: arrived)
        }
        var next = state ?? StreamState(decode: camera, session: placed.session, step: 0, run: placed.run, arrival: arrived)
        let step = Self.difference(camera, next.decode)
        if next.run == placed.run, step > 0, step <= forwardLimit { next.step = step }
        next.decode = camera
        next.arrival = arrived
        next.session = placed.session
        next.run = placed.run
        if let index {
            streams[index] = next
        } else {
            streamIDs.append(stream)
            streams.append(next)
        }
        return .microseconds(Self.difference(placed.session, camera))
    }

    /// After a reconnect: the next packet starts a new run at (about) its arrival.
    package mutating func restart() {
        if runs > 0 { restartPending = true }
    }

    /// A stream's own step in camera time, judged against the time between its arrivals.
    private func jump(_ step: Int64, arrived: Int64) -> Event? {
        if step < -backwardLimit { return .jumpedBack(.microseconds(Self.difference(0, step))) }
        if step > forwardLimit || (step > stepLimit && Self.difference(step, max(0, arrived)) > stepLimit) {
            return .jumpedForward(.microseconds(step))
        }
        return nil
    }

    /// Whether `camera` is within `backwardTolerance` of the run's newest camera time: on the
    /// run's clock, which the other streams carried on. A stream that paused (sound with silence
    /// suppressed) comes back near it, and is no jump.
    private func isNear(_ camera: Int64) -> Bool {
        Self.difference(camera, curve.newest.camera).magnitude <= backwardLimit.magnitude
    }

    /// A packet of a stream not on the current run: new, or on an older run. Near the run's
    /// camera time it joins the run; far from it, after a jump, it is still on the run before (a
    /// packet sent before the jump, read after it) if its own step is normal, else a jump of its own.
    private mutating func join(_ state: StreamState?, camera: Int64, arrived: Int64) -> (session: Int64, run: Int) {
        guard let state else { return (onCurve(camera, arrived: arrived), runs) }
        let step = Self.difference(camera, state.decode)
        if let previous, !isNear(camera), state.run == runs - 1 {
            if let jump = jump(step, arrived: Self.difference(arrived, state.arrival)) { return (startRun(state, camera: camera, arrived: arrived, event: jump), runs) }
            return (max(state.session, Self.microseconds(Double(camera) + previous.offset(at: camera))), state.run)
        }
        let session = onCurve(camera, arrived: arrived)
        let floor = Self.sum(state.session, state.step)
        guard session < floor else { return (session, runs) }
        // The run began before this stream's last packet ended: it begins later, for all streams.
        let delta = Double(floor) - Double(session)
        curve.shift(by: delta)
        base += delta
        return (floor, runs)
    }

    /// A new run whose first packet is `camera`, placed at its arrival, or at the end of its
    /// stream's last packet if that is later.
    private mutating func startRun(_ state: StreamState?, camera: Int64, arrived: Int64, event: Event) -> Int64 {
        let session = max(arrived, state.map { Self.sum($0.session, $0.step) } ?? .min)
        begin(camera: camera, offset: Double(session) - Double(camera), event: event)
        return max(session, onCurve(camera, arrived: arrived))
    }

    private mutating func begin(camera: Int64, offset: Double, event: Event?) {
        previous = runs > 0 && event != .restarted ? curve : nil
        curve = OffsetCurve(camera: camera, offset: offset)
        runStart = camera
        base = offset
        reference = nil
        firstWindowMinimum = .max
        earliest.reset()
        restartPending = false
        runs += 1
        lastEvent = event
    }

    /// The session time of a packet of the current run: the curve at its camera time, moved on
    /// by the slew when the packet is the run's newest.
    private mutating func onCurve(_ camera: Int64, arrived: Int64) -> Int64 {
        let late = Self.difference(arrived, camera)
        earliest.add(camera: Self.difference(camera, runStart), value: late)
        lateness = earliest.minimum.map { Self.difference(late, $0) } ?? 0
        if reference == nil {
            firstWindowMinimum = min(firstWindowMinimum, late)
            if Self.difference(camera, runStart) >= windowLength { reference = firstWindowMinimum }
        }
        let newest = curve.newest
        if camera > newest.camera {
            var target = newest.offset
            if let reference, let minimum = earliest.minimum {
                target = base + Double(Self.difference(minimum, reference))
            }
            let allowance = maxSlew * Double(Self.difference(camera, newest.camera))
            curve.append(camera: camera, offset: newest.offset + min(allowance, max(-allowance, target - newest.offset)))
        }
        return Self.microseconds(Double(camera) + curve.offset(at: camera))
    }
}
