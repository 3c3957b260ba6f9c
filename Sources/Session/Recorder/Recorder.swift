import Dispatch
import Foundation
import Media
import RecCore
import Synchronization

/// One recording: a source on its capture thread, a bounded queue, and an encode thread that feeds
/// the encoder's packets to the file and to whoever listens (the ring).
///
/// ```
/// capture thread: source.nextFrame → pace → latest-frame slot → FrameQueue ─┐
/// encode thread:  FrameQueue.pop → filter → scale → encode → AssetWriter (file) + packet listener
/// ```
/// Each thread owns its C objects: the source belongs to the capture thread, the pipeline and the
/// file to the encode thread. The two share only the queue, the latest frame and the stats.
public final class Recorder: Sendable {
    public let configuration: RecorderConfiguration
    private let stats = Mutex(RecorderStats())
    private let stopRequested = Atomic<Bool>(false)
    private let queue: FrameQueue
    private let latest = LatestFrame()
    private let firstFrame = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let onPacket: @Sendable (EncodedPacket) -> Void
    private let startupError = Mutex<RecError?>(nil)
    private let encoderParameters = Mutex<CodecParameters?>(nil)
    private let sourceRate = Mutex<Rational?>(nil)
    /// Capture times of frames lost (dropped late, or lost by the source before this frame), so a
    /// save can say how many frames are missing inside its range. Bounded: the oldest are forgotten.
    private let drops = Mutex<[Timestamp]>([])
    private static let maxDropRecords = 100_000

    /// - Parameters:
    ///   - source: handed over to the capture thread; do not use it after this call.
    ///   - onPacket: called on the encode thread for every packet (after it is written to the file).
    public init(source: sending FrameSource, configuration: RecorderConfiguration,
                onPacket: @escaping @Sendable (EncodedPacket) -> Void = { _ in }) {
        self.configuration = configuration
        self.queue = FrameQueue(capacity: configuration.queueCapacity,
                                policy: configuration.pace == .off ? .block : .dropNewest)
        self.onPacket = onPacket
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
        if firstFrame.wait(timeout: .now() + configuration.startTimeout) == .timedOut {
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
    }

    /// Blocks until the recording has ended (stop requested, a limit reached, the source ended or
    /// failed) and the file is finished.
    public func waitUntilFinished() {
        done.wait()
        done.signal()
    }

    /// Waits at most `seconds`; true if the recording has finished.
    public func waitUntilFinished(seconds: Double) -> Bool {
        if done.wait(timeout: .now() + seconds) == .timedOut { return false }
        done.signal()
        return true
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
        return s
    }

    /// How many frames were lost (late or by the source) with capture times in `range`.
    public func droppedFrames(in range: Range<Timestamp>) -> Int {
        drops.withLock { $0.count { range.contains($0) } }
    }

    /// The newest captured frame (for `rec snapshot`), without disturbing capture.
    public var latestFrame: VideoFrame? { latest.take() }

    /// The encoder's stream parameters, once it runs (for writing clips from the ring).
    public var codecParameters: CodecParameters? { encoderParameters.withLock { $0 } }

    // MARK: - Threads

    private func startThreads(_ transfer: Transfer<FrameSource>) {
        let capture = Thread { [self] in self.captureLoop(transfer.value) }
        capture.name = "rec.capture"
        capture.qualityOfService = .userInteractive
        let encode = Thread { [self] in self.encodeLoop() }
        encode.name = "rec.encode"
        capture.start()
        encode.start()
    }

    private func fail(_ error: RecError) {
        startupError.withLock { if $0 == nil { $0 = error } }
        stats.withLock {
            $0.lastError = error.description
            $0.state = .failed
        }
        requestStop()
    }

    private func captureLoop(_ source: FrameSource) {
        defer {
            source.stop()
            queue.close()
        }
        do throws(RecError) {
            try source.start()
            sourceRate.withLock { $0 = source.nominalFrameRate }
            stats.withLock {
                let f = source.format
                let rate = source.nominalFrameRate.map { " @ \(Self.format(rate: $0)) fps" } ?? ""
                $0.mode = "\(f.width)x\(f.height) \(f.pixelFormat)\(rate)"
            }
            let clockStart = DispatchTime.now().uptimeNanoseconds
            var count = 0
            var lastSourceDrops = 0
            while !stopRequested.load(ordering: .acquiring) {
                guard let frame = try source.nextFrame() else { break }
                if let limit = configuration.durationLimit, frame.captureTime >= limit { break }
                if configuration.pace == .realtime {
                    let due = clockStart + UInt64(max(0, frame.captureTime.rescaled(to: .microseconds).value)) * 1000
                    if !sleep(until: due) { break }
                }
                latest.publish(frame)
                let lost = source.droppedFrames - lastSourceDrops
                lastSourceDrops += lost
                let queued = queue.push(frame)
                if !queued || lost > 0 {
                    let records = Array(repeating: frame.captureTime, count: lost + (queued ? 0 : 1))
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
                    $0.lastCaptureTime = frame.captureTime
                    $0.droppedBySource = dropped
                }
                if let limit = configuration.frameLimit, count >= limit { break }
            }
        } catch {
            fail(error)
        }
    }

    /// Sleeps until a monotonic instant, waking to check for a stop; false if stopped.
    private func sleep(until due: UInt64) -> Bool {
        while true {
            if stopRequested.load(ordering: .acquiring) { return false }
            let now = DispatchTime.now().uptimeNanoseconds
            if now >= due { return true }
            let wait = min(due - now, 50_000_000)
            var ts = timespec(tv_sec: 0, tv_nsec: Int(wait))
            nanosleep(&ts, nil)
        }
    }

    private func encodeLoop() {
        var pipeline: EncodingPipeline?
        var writer: AssetWriter?
        var failed = false
        let emit: (EncodedPacket) throws(FFmpegError) -> Void = { [self] packet throws(FFmpegError) in
            try writer?.append(packet)
            onPacket(packet)
            let bytes = writer?.bytesWritten ?? 0
            stats.withLock {
                $0.encodedBytes += Int64(packet.size)
                $0.packets += 1
                if packet.isKeyframe { $0.keyframes += 1 }
                $0.outputBytes = bytes
            }
        }
        while let frame = queue.pop() {
            if failed { continue }
            do throws(RecError) {
                if pipeline == nil {
                    let (p, w) = try open(for: frame)
                    pipeline = p
                    writer = w
                    stats.withLock { $0.state = .recording }
                    firstFrame.signal()
                }
                do {
                    try pipeline!.encode(frame, emit: emit)
                } catch {
                    throw error.recError("encoding failed at frame \(frame.sequence)")
                }
                let encoded = pipeline!.framesEncoded
                stats.withLock { $0.framesEncoded = encoded }
            } catch {
                failed = true
                fail(error)
                if pipeline == nil { firstFrame.signal() }
            }
        }
        if let pipeline, !failed || writer != nil {
            do { try pipeline.finish(emit: emit) } catch {
                fail(error.recError("draining the encoder failed"))
            }
            stats.withLock { $0.framesEncoded = pipeline.framesEncoded }
        }
        stats.withLock { if $0.state != .failed { $0.state = .stopping } }
        do { try writer?.finish() } catch {
            fail(error.recError("finishing \(writer?.path ?? "the file") failed; the recording up to here is still readable"))
        }
        let bytes = writer.map { (try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int64) ?? $0.bytesWritten }
        stats.withLock {
            if let bytes { $0.outputBytes = bytes ?? 0 }
            if $0.state != .failed { $0.state = .finished }
        }
        if pipeline == nil && startupError.withLock({ $0 }) == nil {
            startupError.withLock { $0 = .runtime("the source ended before its first frame") }
            firstFrame.signal()
        }
        done.signal()
    }

    private func open(for frame: VideoFrame) throws(RecError) -> (EncodingPipeline, AssetWriter?) {
        var settings = configuration.encoder
        if let rate = sourceRate.withLock({ $0 }), rate.num > 0 { settings.frameRate = rate }
        let rate = settings.frameRate.doubleValue > 0 ? settings.frameRate.doubleValue : 30
        settings.keyframeInterval = max(1, Int((configuration.keyframeSeconds * rate).rounded()))
        let pipeline: EncodingPipeline
        do {
            pipeline = try EncodingPipeline(settings: settings, input: frame.format, filter: configuration.filter)
        } catch {
            if configuration.filter != nil, error.operation.hasPrefix("avfilter") {
                throw .usage("the filter '\(configuration.filter!)' is not valid: \(error.text); see 'ffmpeg -filters' for what this FFmpeg has",
                             cause: error.description)
            }
            throw .runtime("cannot open the \(settings.encoder) encoder for \(frame.format)", cause: error.description)
        }
        encoderParameters.withLock { $0 = pipeline.encoder.parameters }
        guard let output = configuration.output else { return (pipeline, nil) }
        do {
            let writer = try AssetWriter(path: output.path, container: output.container, video: pipeline.encoder.parameters)
            return (pipeline, writer)
        } catch {
            throw .runtime("cannot create \(output.path); check the folder exists and is writable", cause: error.description)
        }
    }

    static func format(rate: Rational) -> String {
        rate.den == 1 ? "\(rate.num)" : String(format: "%.3f", rate.doubleValue)
    }
}
