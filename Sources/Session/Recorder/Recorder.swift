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
/// With a `copy` preset the camera's own MJPEG packets go through the same queue to the file and
/// ring, and nothing is encoded.
///
/// Each thread owns its C objects: the source belongs to the capture thread, the pipeline and the
/// file to the encode thread. The two share only the queue, the latest frame and the stats.
public final class Recorder: Sendable {
    /// What crosses from the capture thread to the encode thread.
    enum CaptureItem {
        case frame(VideoFrame)
        case packet(EncodedPacket)
        /// The source's own sound (a network camera's), already encoded.
        case sound(EncodedPacket)
    }

    public let configuration: RecorderConfiguration
    let stats = Mutex(RecorderStats())
    let stopRequested = Atomic<Bool>(false)
    /// Released with `stopRequested`: wakes a wait for an unplugged camera at once.
    let stopping = Latch()
    /// Wakes a source blocked in a read (a FIFO with no writer) when a stop is requested.
    private let sourceInterrupt: InterruptFlag?
    let queue: FrameQueue<CaptureItem>
    let latestPacket = Mutex<EncodedPacket?>(nil)
    let latest = LatestFrame()
    private let firstFrame = Latch()
    private let done = Latch()
    private let onPacket: @Sendable (EncodedPacket) -> Void
    /// Told on the capture thread when the source goes away and when it is back, in a sentence.
    let onOutage: @Sendable (String) -> Void
    private let startupError = Mutex<RecError?>(nil)
    let encoderParameters = Mutex<CodecParameters?>(nil)
    let sourceRate = Mutex<Rational?>(nil)
    /// Whether the source's pictures come unevenly (a screen), so keyframes go by time.
    let keyframesByTime = Mutex(false)
    /// Session time before which the recording file holds every frame on disk.
    let fileCompleteBefore = Mutex<Timestamp?>(nil)
    /// Capture times of frames lost (dropped late, or lost by the source before this frame), so a
    /// save can say how many frames are missing inside its range. Bounded: the oldest are forgotten.
    private let drops = Mutex<[Timestamp]>([])
    private static let maxDropRecords = 100_000
    /// Session times in which the source was away (outages, unplugs), for saves to report.
    let gapRanges = Mutex<[Range<Timestamp>]>([])
    /// With `--segment`: the files this recording made and still keeps.
    let segmentCatalog: SegmentCatalog?
    /// Frames between capture and encoder with `--pace off` (measured: 2 is as fast as 16).
    static let unpacedQueue = 2
    /// The most raw picture bytes the late-frame queue holds: 16 frames of 720p, 10 of 1080p
    /// (a third of a second), where 16 of 1080p were 50 MB while the encoder lagged.
    static let lateQueueBytes = 32_000_000
    /// Camera-control requests for the capture thread (`rec control`).
    public let controls = ControlMailbox()
    /// The sound inputs (`--audio`, once for each), in stream order: each on its own thread, see
    /// `SoundRecorder`. The first is `.sound(0)`.
    let sounds: [SoundRecorder]
    /// The sound encoders' parameters, in stream order, once they run.
    let soundParameters = Mutex<[CodecParameters]>([])
    /// The sound streams the source brings itself (a network camera's), set once it has started.
    let sourceSoundParameters = Mutex<[CodecParameters]>([])

    /// - Parameters:
    ///   - source: handed over to the capture thread; do not use it after this call.
    ///   - sounds: the sound sources, each handed over to an audio thread of its own and encoded
    ///     as `configuration.audio` says (its container's default when nil): streams `.sound(0)`,
    ///     `.sound(1)`, … in this order.
    ///   - onPacket: called on the encode thread for every packet of every stream, after it is
    ///     written to the file.
    ///   - onOutage: called when the source goes away (`--on-unplug wait`) and when it is back.
    public init(source: sending FrameSource, sounds: sending [AudioSource] = [], configuration: RecorderConfiguration,
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
    public func waitUntilStarted() throws(RecError) {
        if !firstFrame.wait(until: .after(configuration.startTimeout)) {
            requestStop()
            waitUntilFinished()
            if let error = startupError.withLock({ $0 }) { throw error }
            throw .runtime("no frame arrived within \(configuration.startTimeout) s; check the source, or raise --start-timeout")
        }
        if let error = startupError.withLock({ $0 }) {
            waitUntilFinished()
            throw error
        }
    }

    /// Asks both threads to stop; the file is finished by the encode thread. Returns at once.
    public func requestStop() {
        stopRequested.store(true, ordering: .releasing)
        stopping.release()
        sourceInterrupt?.set()
        for sound in sounds { sound.wake() }
    }

    /// Blocks until the recording has ended (stop requested, a limit reached, the source ended or
    /// failed) and the file is finished.
    public func waitUntilFinished() {
        done.wait()
    }

    /// Waits at most `seconds`; true if the recording has finished.
    public func waitUntilFinished(seconds: Double) -> Bool {
        done.wait(until: .after(seconds))
    }

    public var isFinished: Bool {
        let s = stats.withLock { $0.state }
        return s == .finished || s == .failed
    }

    /// A snapshot of the counters.
    public var currentStats: RecorderStats {
        var s = stats.withLock { $0 }
        s.droppedLate = queue.droppedCount
        s.encoderLag = queue.depth
        s.sounds = soundStats()
        // A sound that failed while the pictures went on is said, not only counted.
        if s.lastError == nil, let failure = s.sounds.lazy.compactMap(\.failure).first { s.lastError = failure }
        return s
    }

    /// How many frames were lost (late or by the source) with capture times in `range`.
    public func droppedFrames(in range: Range<Timestamp>) -> Int {
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
        startupError.withLock { if $0 == nil { $0 = error } }
        stats.withLock {
            $0.lastError = error.description
            $0.state = .failed
        }
        requestStop()
    }

    private func captureLoop(_ source: FrameSource) {
        var lastTime: Timestamp?
        var lastInterval = 0.0
        defer {
            controls.close()
            source.stop()
            queue.close()
            // The last picture lasts as long as the gap before it (a camera slowing down in low
            // light), at least one nominal frame.
            let nominal = source.nominalFrameRate.map { $0.num > 0 ? $0.inverted.doubleValue : 0 } ?? 0
            let frame = max(nominal, lastInterval)
            for sound in sounds { sound.end(at: lastTime.map { Timestamp(seconds: $0.seconds + frame) } ?? .zero) }
        }
        do throws(RecError) {
            // A sound server can take a second or more to send a new stream's first chunk: the
            // pictures start once it has, so the sound covers them from the first.
            // Every input's audio thread is already opening its device, so waiting on each in
            // turn waits for the slowest.
            for sound in sounds {
                sound.waitUntilFlowing(seconds: configuration.startTimeout / 2) { stopRequested.load(ordering: .acquiring) }
            }
            try source.start()
            sourceSoundParameters.withLock { $0 = source.capabilities.sound?.soundParameters ?? [] }
            let compressed = try compressedSource(source)
            if compressed == nil, source.format.pictureBytes > 0 {
                queue.limit(to: max(4, Self.lateQueueBytes / source.format.pictureBytes))
            }
            sourceRate.withLock { $0 = source.nominalFrameRate }
            let capabilities = source.capabilities
            keyframesByTime.withLock { $0 = capabilities.keyframesByTime }
            controls.open(capabilities.controls, description: source.description)
            stats.withLock {
                let f = source.format
                let rate = source.nominalFrameRate.map { " @ \(Self.format(rate: $0)) fps" } ?? ""
                let stored = compressed?.compressedParameters.map { "\($0.codecName) (stored as it comes)" }
                $0.mode = "\(f.width)x\(f.height) \(stored ?? f.pixelFormat.name)\(rate)"
            }
            let clockStart = DispatchTime.now().uptimeNanoseconds
            var count = 0
            var lastSourceDrops = 0
            var outage: Outage?
            while !stopRequested.load(ordering: .acquiring) {
                guard let (item, time) = try next(from: source, compressed: compressed, outage: &outage) else { break }
                if let limit = configuration.durationLimit, time >= limit { break }
                if configuration.pace == .realtime && !capabilities.isLive {
                    let due = clockStart + UInt64(max(0, time.rescaled(to: .microseconds).value)) * 1000
                    if !sleep(until: due) { break }
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
                    if configuration.pace == .off { sound.waitForSound(before: time) { stopRequested.load(ordering: .acquiring) } }
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
                queueSourceSound(capabilities)
                controls.serve(capabilities.controls)
                let lost = source.droppedFrames - lastSourceDrops
                lastSourceDrops += lost
                let queued = queue.push(item)
                if !queued || lost > 0 {
                    let records = Array(repeating: time, count: lost + (queued ? 0 : 1))
                    drops.withLock {
                        $0.append(contentsOf: records)
                        if $0.count > Self.maxDropRecords { $0.removeFirst($0.count - Self.maxDropRecords) }
                    }
                }
                count += 1
                let dropped = source.droppedFrames
                stats.withLock {
                    if $0.startedAt == nil { $0.startedAt = Date() }
                    $0.framesCaptured = count
                    $0.lastCaptureTime = time
                    $0.droppedBySource = dropped
                }
                if let limit = configuration.frameLimit, count >= limit { break }
            }
        } catch {
            fail(error)
        }
    }

    private func encodeLoop() {
        var pipeline: EncodingPipeline?
        var writer: SegmentedWriter?
        var failed = false
        // A failed write ends the file (cut back to its last complete fragment) but never keeps a
        // packet from the ring: the ring stays complete up to the newest frame.
        let emit: (EncodedPacket) throws(FFmpegError) -> Void = { [self] packet throws(FFmpegError) in
            if let file = writer {
                do throws(FFmpegError) {
                    try file.append(packet)
                    fileCompleteBefore.withLock { $0 = file.completeBefore }
                } catch {
                    writer = nil
                    fileFailed(file, error)
                }
            }
            onPacket(packet)
            let bytes = writer?.bytesWritten ?? 0
            let path = writer?.path
            let picture = packet.stream == .video
            stats.withLock {
                if let path { $0.outputPath = path }
                $0.encodedBytes += Int64(packet.size)
                if picture {
                    $0.packets += 1
                    if packet.isKeyframe { $0.keyframes += 1 }
                }
                $0.outputBytes = bytes
            }
        }
        var started = false
        var videoEnd: Timestamp?
        let emitVideo = emit
        var soundEnded = Set<StreamID>()
        // The source's own sound waits until a picture reaches its time: it arrives ahead of
        // the pictures (a camera's encoder delay), and none may outlast the last picture.
        var heldSound: [EncodedPacket] = []
        let emitPicture: (EncodedPacket) throws(FFmpegError) -> Void = { [self] packet throws(FFmpegError) in
            // Sound first: it comes ahead of the encoder's look-ahead, and the muxer interleaves.
            // A sound that ended (failed) holds the other streams back no longer.
            for id in try takeSound(ended: &soundEnded, emit: emitVideo) { writer?.ended(id) }
            videoEnd = max(videoEnd ?? packet.endTime, packet.endTime)
            try releaseSourceSound(&heldSound, before: videoEnd, emit: emitVideo)
            try emitVideo(packet)
        }
        while let item = queue.pop() {
            if failed { continue }
            do throws(RecError) {
                switch item {
                case .frame(let frame):
                    let running: EncodingPipeline
                    if let pipeline {
                        running = pipeline
                    } else {
                        let (p, w) = try open(for: frame)
                        (running, pipeline, writer) = (p, p, w)
                    }
                    do {
                        try running.encode(frame, emit: emitPicture)
                    } catch {
                        throw error.recError("encoding failed at frame \(frame.sequence)")
                    }
                    let encoded = running.framesEncoded
                    stats.withLock { $0.framesEncoded = encoded }
                case .packet(let packet):
                    if !started { writer = try openCopy() }
                    do { try emitPicture(packet) } catch {
                        throw error.recError("writing the camera's frame at \(packet.presentationTime.clockText) failed")
                    }
                    stats.withLock { $0.framesEncoded += 1 }
                case .sound(let packet):
                    heldSound.append(packet)
                    continue
                }
                if !started {
                    started = true
                    stats.withLock { if $0.state == .starting { $0.state = .recording } }
                    firstFrame.release()
                }
            } catch {
                failed = true
                fail(error)
                if !started { firstFrame.release() }
            }
        }
        if let pipeline, !failed || writer != nil {
            do { try pipeline.finish(emit: emitPicture) } catch {
                fail(error.recError("draining the encoder failed"))
            }
            stats.withLock { $0.framesEncoded = pipeline.framesEncoded }
        }
        try? releaseSourceSound(&heldSound, before: videoEnd, emit: emit)
        finishSound(upTo: videoEnd, emit: emit)
        stats.withLock { if $0.state != .failed { $0.state = .stopping } }
        if let file = writer {
            do { try file.finish() } catch {
                if file.failure != nil { fileFailed(file, error) } else {
                    fail(error.recError("finishing \(file.path) failed; the recording up to here is still readable"))
                }
            }
        }
        let bytes = configuration.output.map { (try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int64) ?? 0 }
        stats.withLock {
            if let bytes { $0.outputBytes = bytes }
            if $0.state != .failed { $0.state = .finished }
        }
        if !started {
            startupError.withLock { if $0 == nil { $0 = .runtime("the source ended before its first frame") } }
            firstFrame.release()
        }
        done.release()
    }

    static func format(rate: Rational) -> String {
        rate.den == 1 ? "\(rate.num)" : String(format: "%.3f", rate.doubleValue)
    }
}
