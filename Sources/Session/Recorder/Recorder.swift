import Dispatch
import Foundation
import Encoding
import Media
import RecCore
import Synchronization

/// One recording: a source on its capture thread, a bounded queue, and an encode thread that feeds
/// the encoder's packets to the file and to whoever listens (the ring). Each sound input has its
/// own thread (`SoundRecorder`) and stream (`.sound(0)`, `.sound(1)`, …); the encode thread takes
/// their packets before each picture, so the file and the listener get every stream interleaved.
///
/// ```
/// capture thread: source.nextFrame → pace → latest-frame slot → FrameQueue ─┐
/// encode thread:  FrameQueue.pop → filter → scale → encode → AssetWriter (file) + packet listener
/// ```
/// With a `copy` preset nothing is encoded: a USB camera's own MJPEG packets go through the same
/// queue (late ones dropped), and the packets of a source that capture waits for anyway (a network
/// camera's H.264 or H.265) go to the file and ring from the capture thread itself, with no wake of
/// the encode thread for each (`RecordingSink`).
///
/// Each thread owns its C objects: the source belongs to the capture thread, the pipeline and the
/// file to the encode thread. The two share only the queue, the latest frame and the stats.
package final class Recorder: Sendable {
    /// What crosses from the capture thread to the encode thread.
    enum CaptureItem {
        case frame(VideoFrame)
        case packet(EncodedPacket)
        /// The source's own sound (a network camera's), already encoded.
        case sound(EncodedPacket)
    }

    package let configuration: RecorderConfiguration
    let stats = Mutex(RecorderStats())
    /// The stop: released once by `requestStop`, read by the capture loop before each frame, and
    /// waking at once every wait that takes it (an unplugged camera, a paced frame's time).
    let stopping = Latch()
    /// Wakes a source blocked in a read (a FIFO with no writer) when a stop is requested.
    private let sourceInterrupt: InterruptFlag?
    let queue: FrameQueue<CaptureItem>
    let latestPacket = Mutex<EncodedPacket?>(nil)
    let latest = LatestFrame()
    let firstFrame = Latch()
    let done = Latch()
    let onPacket: @Sendable (EncodedPacket) -> Void
    /// Told on the capture thread when the source goes away and when it is back, in a sentence.
    let onOutage: @Sendable (String) -> Void
    /// Why the recording could not start or ended: the first failure, kept.
    let startupError = WriteOnce<RecError>()
    /// The pictures' codec parameters: the encoder's, or a copied source's own.
    let encoderParameters = WriteOnce<CodecParameters>()
    /// What the source says of itself once it has started, told once by the capture thread.
    let sourceFacts = WriteOnce<SourceFacts>()
    /// Capture times of frames lost (dropped late, or lost by the source before this frame), so a
    /// save can say how many frames are missing inside its range. Bounded: the oldest are forgotten.
    private let drops = Mutex<[Timestamp]>([])
    private static let maxDropRecords = 100_000
    /// Where the pictures stopped and came back (outages, unplugs, stalls), for saves to report
    /// and the review timeline to shade; fed on the capture thread.
    let gaps = Mutex(GapTracker())
    /// With `--segment`: the files this recording made and still keeps.
    let segmentCatalog: SegmentCatalog?
    /// Frames between capture and encoder with `--pace off` (measured: 2 is as fast as 16).
    static let unpacedQueue = 2
    /// The most raw picture bytes the late-frame queue holds: 16 frames of 720p, 10 of 1080p
    /// (a third of a second), where 16 of 1080p were 50 MB while the encoder lagged.
    static let lateQueueBytes = 32_000_000
    /// How often a copy written on the capture thread gives free memory back (session time).
    static let trimSeconds = 10.0
    /// Camera-control requests for the capture thread (`rec control`).
    package let controls = ControlMailbox()
    /// The sound inputs (`--audio`, once for each), in stream order: each on its own thread, see
    /// `SoundRecorder`. The first is `.sound(0)`.
    let sounds: [SoundRecorder]
    /// Every sound stream's parameters, in stream order (the source's own first), once the
    /// encoders run.
    let soundParameters = WriteOnce<[CodecParameters]>()

    /// - Parameters:
    ///   - source: handed over to the capture thread; do not use it after this call.
    ///   - sounds: the sound sources, each handed over to an audio thread of its own and encoded
    ///     as `configuration.audio` says (its container's default when nil): streams `.sound(0)`,
    ///     `.sound(1)`, … in this order.
    ///   - onPacket: called on the encode thread for every packet of every stream, after it is
    ///     written to the file.
    ///   - onOutage: called when the source goes away (`--on-unplug wait`) and when it is back.
    package init(source: sending FrameSource, sounds: sending [AudioSource] = [], configuration: RecorderConfiguration,
                onPacket: @escaping @Sendable (EncodedPacket) -> Void = { _ in },
                onOutage: @escaping @Sendable (String) -> Void = { _ in }) {
        self.configuration = configuration
        let encoding = configuration.audio ?? AudioEncoding.standard(for: configuration.output?.container ?? .mp4)
        // Each source goes to its own audio thread and is never touched here again.
        let moved = sounds.map { Transfer(value: $0) }
        self.sounds = moved.map { (one: Transfer<AudioSource>) in
            SoundRecorder(source: one.value, encoding: encoding, pace: configuration.pace, corrects: configuration.correctsAudioDrift)
        }
        // Unpaced, or from a regular file, capture waits for the encoder, so a short queue keeps
        // both threads busy; each queued decoded frame pins a decoder buffer (3 MB at 1080p), so
        // 16 of them were ~50 MB. A camera's late frames are dropped instead.
        let waits = configuration.pace == .off || source.capabilities.waitsWithoutLoss
        self.queue = FrameQueue(capacity: waits ? min(configuration.queueCapacity, Self.unpacedQueue) : configuration.queueCapacity,
                                policy: waits ? .block : .dropNewest)
        self.onPacket = onPacket
        self.onOutage = onOutage
        self.segmentCatalog = configuration.output?.segments.map { SegmentCatalog(settings: $0) }
        self.sourceInterrupt = source.capabilities.interrupt
        let transfer = Transfer(value: source)
        stats.withLock {
            $0.source = source.description
            $0.outputPath = configuration.output?.path
        }
        startThreads(transfer)
    }

    /// Waits until the first frame is captured and the encoder runs (the "camera started" signal).
    /// Throws the source's or encoder's error, or a timeout; the recording is then stopped.
    package func waitUntilStarted() throws(RecError) {
        if !firstFrame.wait(until: .after(configuration.startTimeout)) {
            requestStop()
            waitUntilFinished()
            if let error = startupError.value { throw error }
            throw RecError.runtime("no frame arrived within \(configuration.startTimeout) s; check the source, or raise --start-timeout")
                .because(.timedOut)
        }
        if let error = startupError.value {
            waitUntilFinished()
            throw error
        }
    }

    /// Asks both threads to stop; the file is finished by the encode thread. Returns at once.
    package func requestStop() {
        stopping.release()
        sourceInterrupt?.set()
        for sound in sounds { sound.wake() }
    }

    /// Blocks until the recording has ended (stop requested, a limit reached, the source ended or
    /// failed) and the file is finished.
    package func waitUntilFinished() {
        done.wait()
    }

    /// Waits at most `seconds`; true if the recording has finished.
    package func waitUntilFinished(seconds: Double) -> Bool {
        done.wait(until: .after(seconds))
    }

    package var isFinished: Bool {
        let s = stats.withLock { $0.state }
        return s == .finished || s == .failed
    }

    /// A snapshot of the counters.
    package var currentStats: RecorderStats {
        var s = stats.withLock { $0 }
        s.droppedLate = queue.droppedCount
        s.encoderLag = queue.depth
        s.sounds = soundStats()
        // A sound that failed while the pictures went on is said, not only counted.
        if s.lastError == nil, let failure = s.sounds.lazy.compactMap(\.failure).first { s.lastError = failure }
        return s
    }

    /// How many frames were lost (late or by the source) with capture times in `range`.
    package func droppedFrames(in range: Range<Timestamp>) -> Int {
        drops.withLock { $0.count { range.contains($0) } }
    }

    // MARK: - Threads

    private func startThreads(_ transfer: Transfer<FrameSource>) {
        // `Thread.name` stays inside Foundation on Linux: name the threads for top -H and /proc too.
        let capture = Thread { [self] in
            ThreadName.set("rec.capture")
            self.captureLoop(transfer.value)
        }
        capture.name = "rec.capture"
        capture.qualityOfService = .userInteractive
        let encode = Thread { [self] in
            ThreadName.set("rec.encode")
            self.encodeLoop()
        }
        encode.name = "rec.encode"
        capture.start()
        encode.start()
    }

    func fail(_ error: RecError) {
        startupError.set(error)
        stats.withLock {
            $0.lastError = error.description
            $0.failure = error
            $0.state = .failed
        }
        requestStop()
    }

    private func captureLoop(_ source: FrameSource) {
        var lastTime: Timestamp?
        var lastInterval = 0.0
        // Set when this thread writes the copy itself (see `RecordingSink`).
        var sink: RecordingSink?
        defer {
            controls.close()
            source.stop()
            if sink == nil { queue.close() }
            // The last picture lasts as long as the gap before it (a camera slowing down in low
            // light), at least one nominal frame.
            let nominal = source.nominalFrameRate.map { $0.num > 0 ? $0.inverted.doubleValue : 0 } ?? 0
            let frame = max(nominal, lastInterval)
            for sound in sounds { sound.end(at: lastTime.map { Timestamp(seconds: $0.seconds + frame) } ?? .zero) }
            if let sink {
                sink.finish()
                queue.close()
            }
        }
        do throws(RecError) {
            // A sound server can take a second or more to send a new stream's first chunk: the
            // pictures start once it has, so the sound covers them from the first.
            // Every input's audio thread is already opening its device, so waiting on each in
            // turn waits for the slowest.
            for sound in sounds {
                sound.waitUntilFlowing(seconds: configuration.startTimeout / 2) { stopping.isReleased }
            }
            try source.start()
            let compressed = try compressedSource(source)
            if compressed == nil, source.format.pictureBytes > 0 {
                queue.limit(to: max(4, Self.lateQueueBytes / source.format.pictureBytes))
            }
            // Nothing to encode, and capture would wait for the file anyway: the packets go to
            // the file and ring from here, without a wake of the encode thread for each.
            let copiesHere = compressed != nil && queue.policy == .block
            let capabilities = source.capabilities
            sourceFacts.set(SourceFacts(rate: source.nominalFrameRate, keyframesByTime: capabilities.keyframesByTime,
                                        sound: capabilities.sound?.soundParameters ?? [], copiesOnCaptureThread: copiesHere))
            if copiesHere { sink = RecordingSink(self, publishes: false) }
            // A screen repeats a still picture once a second: only a longer silence is a gap.
            gaps.withLock {
                $0.frameInterval = source.nominalFrameRate.map { $0.num > 0 ? $0.inverted.doubleValue : 0 } ?? 0
                if capabilities.keyframesByTime { $0.shortest = 2.5 }
            }
            controls.open(capabilities.controls, description: source.description)
            stats.withLock {
                let f = source.format
                let rate = source.nominalFrameRate.map { " @ \(Self.format(rate: $0)) fps" } ?? ""
                let stored = compressed?.compressedParameters.map { "\($0.codecName) (stored as it comes)" }
                $0.mode = "\(f.width)x\(f.height) \(stored ?? f.pixelFormat.name)\(rate)"
            }
            let clockStart = DispatchTime.now().uptimeNanoseconds
            var nextTrim = Timestamp(seconds: Self.trimSeconds)
            var count = 0
            var lastSourceDrops = 0
            var wallClockKnown = false
            var sourceSound: [EncodedPacket] = []
            // A stop takes what the source already let out: a B-frame run is written whole.
            while !stopping.isReleased || compressed?.holdsReleasedPackets == true {
                guard let (item, time) = try next(from: source, compressed: compressed) else { break }
                if let limit = configuration.durationLimit, time >= limit { break }
                if configuration.pace == .realtime && !capabilities.isLive {
                    let due = clockStart + UInt64(max(0, time.rescaled(to: .microseconds).value)) * 1000
                    if !waitForFrameTime(due) { break }
                }
                if lastTime == nil, !sounds.isEmpty {
                    // Session time 0 on CLOCK_MONOTONIC: the camera's own first timestamp when it
                    // says, else the instant this first frame was due (or arrived).
                    let epoch = capabilities.clock?.monotonicEpoch
                        ?? (capabilities.isLive ? DispatchTime.now().uptimeNanoseconds - UInt64(max(0, time.rescaled(to: .microseconds).value)) * 1000
                            : clockStart)
                    for sound in sounds { sound.begin(epoch: epoch) }
                }
                if let previous = lastTime { lastInterval = time.seconds - previous.seconds }
                lastTime = time
                for sound in sounds {
                    sound.captured(upTo: time)
                    if configuration.pace == .off { sound.waitForSound(before: time) { stopping.isReleased } }
                }
                switch item {
                case .frame(let frame):
                    // The snapshot slot gets its own frame over the same pictures: the encode
                    // thread sets fields (pts) on the one it owns.
                    if let copy = try? frame.clone() { latest.publish(copy) }
                case .packet(let packet) where packet.isKeyframe: latestPacket.withLock { $0 = packet }
                case .packet: break
                case .sound: break
                }
                if let watch = configuration.onCapture { tell(watch, item, time: time, number: count) }
                if let motion = configuration.motion {
                    switch item {
                    case .frame: if motion.wants(time) { tell(motion.take, item, time: time, number: count) }
                    case .packet: tell(motion.take, item, time: time, number: count)
                    case .sound: break
                    }
                }
                queueSourceSound(capabilities, into: sink, wallClockKnown: &wallClockKnown, packets: &sourceSound)
                controls.serve(capabilities.controls)
                let lost = source.droppedFrames - lastSourceDrops
                lastSourceDrops += lost
                let queued: Bool
                if let sink {
                    sink.take(item)
                    queued = true
                } else {
                    queued = queue.push(item)
                }
                if !queued || lost > 0 {
                    let records = Array(repeating: time, count: lost + (queued ? 0 : 1))
                    drops.withLock {
                        $0.append(contentsOf: records)
                        if $0.count > Self.maxDropRecords { $0.removeFirst($0.count - Self.maxDropRecords) }
                    }
                }
                count += 1
                let dropped = source.droppedFrames
                // One update for the item, the copy's writes included.
                // The wall clock at session time 0 (until the source tells its own): when the
                // first frame came, not now, after the file was opened for it.
                let arrivalZero = count == 1 ? Self.wallClock(atMonotonic: capabilities.clock?.monotonicEpoch) : nil
                stats.withLock {
                    if $0.startedAt == nil { $0.startedAt = arrivalZero ?? Date() }
                    $0.framesCaptured = count
                    $0.lastCaptureTime = time
                    $0.droppedBySource = dropped
                    sink?.publish(into: &$0)
                }
                if let limit = configuration.frameLimit, count >= limit { break }
                if sink != nil, time >= nextTrim {
                    // This thread allocates and frees the copy's every packet: between two, the
                    // free pages go back (MemoryPolicy.trim).
                    MemoryPolicy.trim()
                    nextTrim = Timestamp(seconds: time.seconds + Self.trimSeconds)
                }
            }
        } catch {
            fail(error)
        }
    }

    private func encodeLoop() {
        let sink = RecordingSink(self)
        while let item = queue.pop() { sink.take(item) }
        // A copy the capture thread wrote itself is finished there.
        if sourceFacts.value?.copiesOnCaptureThread == true { return }
        sink.finish()
    }

    /// The wall-clock time of a CLOCK_MONOTONIC instant in the last minute (`ArrivalWallClock`).
    static func wallClock(atMonotonic epoch: UInt64?) -> Date {
        let micros = ArrivalWallClock.atEpoch(epoch, wallNow: Int64(Date().timeIntervalSince1970 * 1_000_000),
                                              monotonicNow: DispatchTime.now().uptimeNanoseconds)
        return Date(timeIntervalSince1970: Double(micros) / 1_000_000)
    }

    static func format(rate: Rational) -> String {
        rate.den == 1 ? "\(rate.num)" : String(format: "%.3f", rate.doubleValue)
    }
}
