import Foundation
import Media
import CaptureSetup
import RecCore
import Session
import SessionControl
import Synchronization

/// A recording from one source: frames captured on a thread of their own, encoded with FFmpeg
/// into a replay buffer and, if asked, a file.
///
/// ```swift
/// let session = try CaptureSession(.init(source: .testPattern))
/// try await session.start()                        // returns once the first frame is in
/// // Seconds 1 to 2 exactly; the save waits until the session has recorded them.
/// let clip = try await session.replayBuffer.save(from: .seconds(1), to: .seconds(2),
///                                                into: URL(fileURLWithPath: "clip.mp4"))
/// print(clip)                                       // what `rec save` prints
/// print(await session.stop())                      // what `rec stop` prints
/// ```
///
/// A session runs once: make a new one to record again. It is `Sendable`; every method may be
/// called from any thread or task. See <doc:ThreadingModel> for which thread calls what.
public final class CaptureSession: Sendable {
    /// What was asked for, as given.
    public let configuration: Configuration
    let setup: RecordingSetup
    let recorderConfiguration: RecorderConfiguration
    let hub = FrameHub()
    /// The source an `AssetWriter` feeds, instead of one the configuration names.
    let given: (any FrameSource & Sendable)?
    let host = Mutex<SessionHost?>(nil)
    private let started = Atomic<Bool>(false)

    /// Checks `configuration` as `rec record` checks its options, and opens nothing yet.
    ///
    /// - Throws: ``RecError/Kind/invalidRequest`` for a source, size or rate that cannot work
    ///   together, ``RecError/Kind/unsupported`` for a container the preset's codec does not
    ///   fit, ``RecError/Kind/alreadyExists`` for a recording file that exists while
    ///   ``Configuration/overwrites`` is false, ``RecError/Kind/notWritable`` for a folder that
    ///   is not there.
    public convenience init(_ configuration: Configuration) throws(RecError) {
        try self.init(configuration, source: nil)
    }

    /// - Parameters:
    ///   - given: frames an `AssetWriter` is handed, instead of the configuration's source.
    ///   - copied: the codec of the packets `given` delivers, when it stores them as they are.
    init(_ configuration: Configuration, source given: (any FrameSource & Sendable)?, copying copied: String? = nil) throws(RecError) {
        // FFmpeg's own chatter off, as the command line has it; REC_FFMPEG_LOG=info brings it back.
        FFmpegLog.quiet()
        self.configuration = configuration
        self.given = given
        let setup = try publicErrors { () throws(RecCore.RecError) in
            try RecordingSetup(capture: configuration.choices, environment: ProcessInfo.processInfo.environment)
        }
        self.setup = setup
        recorderConfiguration = try publicErrors { () throws(RecCore.RecError) in
            var output: RecorderConfiguration.Output?
            if let path = configuration.recordingURL?.path {
                let absolute = OutputFile.absolute(path)
                let container = try setup.container(for: absolute, copying: copied)
                try OutputPath.checkWritable(absolute, force: configuration.overwrites)
                output = .init(path: absolute, container: container)
            }
            var c = setup.configuration(output: output, pace: configuration.pace == .fastest ? .off : .realtime)
            c.keepsRingWhenFileFails = true
            return c
        }
        let limits = configuration.replayBuffer
        guard limits.duration >= .seconds(1), limits.bytes >= RingLimits.smallestBytes else {
            throw RecError(kind: .invalidRequest, message: "a replay buffer must hold at least 1 s and \(ByteSize.text(RingLimits.smallestBytes)) "
                           + "to keep two keyframes; raise ReplayBuffer.Limits")
        }
    }

    /// Calls `body` on the capture thread with every frame, as it is captured and before it is
    /// encoded: the way to see every frame. Register before ``start()`` to see the first.
    ///
    /// Back-pressure: `body` runs on the capture thread and holds it up. A frame captured while
    /// `body` still runs waits; a camera whose buffers all wait drops frames (counted in
    /// ``Statistics/droppedFrames``), and a test pattern or file is slowed. Do little, or hand
    /// the work on.
    ///
    /// - Returns: a token whose ``FrameObservation/cancel()`` removes `body`; `body` stays
    ///   until then (dropping the token does not remove it).
    @discardableResult
    public func onFrame(_ body: @escaping @Sendable (Frame) -> Void) -> FrameObservation {
        FrameObservation(hub: hub, id: hub.add(callback: body))
    }

    /// Subscribes to the frames as they arrive, in order, from now until the session ends.
    ///
    /// Each call is a new subscriber: call it before ``start()`` to see the first frame, and
    /// iterate the result once. Back-pressure: the session never waits for a subscriber. One
    /// that falls behind keeps the newest `keepingNewest` frames and misses the older ones
    /// (skipped for it, not for the recording; ``Frame/number`` shows the gap); ``onFrame(_:)``
    /// sees every one. Leaving the loop (`break`) stops watching and the session records on;
    /// cancelling the task that iterates stops the session, as ``stop()`` does. The sequence
    /// ends when the session ends, and throws the session's error if it failed.
    public func frames(keepingNewest count: Int = 2) -> Frames {
        Frames(hub: hub, keeping: max(1, count)) { [weak self] in self?.requestStop() }
    }

    /// Opens the source and starts recording; returns once the first frame is captured and the
    /// encoder runs ("camera started").
    ///
    /// - Throws: the source's or encoder's error, or a timeout when no frame arrives (5 s; 20 s
    ///   for a network camera). The session is then over.
    public func start() async throws(RecError) {
        try await start(waitingForFirstFrame: true)
    }

    func start(waitingForFirstFrame: Bool) async throws(RecError) {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else {
            throw RecError(kind: .sessionEnded, message: "this session has already been started; make a new CaptureSession to record again")
        }
        let (setup, hub, given) = (self.setup, self.hub, self.given)
        var recording = recorderConfiguration
        recording.onCapture = { hub.deliver($0) }
        let configuration = SessionConfiguration(name: "swift", recorder: recording,
                                                 ring: RingLimits(maxDuration: Timestamp(self.configuration.replayBuffer.duration),
                                                                  maxBytes: self.configuration.replayBuffer.bytes))
        let made = try await offThread { () throws(RecCore.RecError) -> SessionHost in
            let container = configuration.recorder.output?.container ?? .mp4
            let source: FrameSource
            let sounds: [AudioSource]
            do throws(RecCore.RecError) {
                if let given { source = given } else { source = try setup.makeSource(container: container) }
                sounds = try setup.makeSounds()
            } catch {
                // Nothing will record: a frames loop already waiting ends with the reason.
                hub.finish(failure: RecError(error))
                throw error
            }
            let host = SessionHost(configuration: configuration, source: source, sounds: sounds)
            let recorder = host.recorder
            Thread.detachNewThread {
                recorder.waitUntilFinished()
                let stats = recorder.currentStats
                hub.finish(failure: stats.state == .failed ? Statistics.failure(of: stats) : nil)
            }
            return host
        }
        host.withLock { $0 = made }
        guard waitingForFirstFrame else { return }
        try await offThread { () throws(RecCore.RecError) in try made.recorder.waitUntilStarted() }
    }

    /// Finishes the recording (the file is complete when this returns) and ends the session.
    /// Calling it again returns the same summary.
    @discardableResult
    public func stop() async -> StopSummary {
        guard let host = host.withLock({ $0 }) else { return StopSummary(RecCore.StopSummary()) }
        let summary = await offThread { host.stop() }
        return StopSummary(summary)
    }

    /// Asks the recording to stop and returns at once; ``stop()`` waits for it.
    public func requestStop() {
        host.withLock { $0 }?.recorder.requestStop()
    }

    /// Waits until the recording ends by itself (its ``Configuration/duration``, a file's end)
    /// or is stopped, and returns the summary.
    @discardableResult
    public func waitUntilFinished() async -> StopSummary {
        guard let host = host.withLock({ $0 }) else { return StopSummary(RecCore.StopSummary()) }
        await offThread { host.recorder.waitUntilFinished() }
        return await stop()
    }

    /// The replay buffer the session fills: save any range it holds.
    public var replayBuffer: ReplayBuffer { ReplayBuffer(session: self) }

    /// Counts and rates so far.
    public var statistics: Statistics {
        guard let host = host.withLock({ $0 }) else { return Statistics() }
        return Statistics(host.recorder.currentStats, ring: host.ring.stats)
    }

    /// Writes the newest frame as a JPEG still photo, as `rec snapshot` does.
    ///
    /// - Throws: ``RecError/Kind/invalidRequest`` for a name that does not end in `.jpg`,
    ///   ``RecError/Kind/alreadyExists`` for one that exists (unless `overwrite`),
    ///   ``RecError/Kind/failed`` before the first frame.
    public func capturePhoto(into url: URL, overwrite: Bool = false) async throws(RecError) -> PhotoReport {
        let host = try runningHost()
        let request = SnapshotRequest(output: OutputFile.absolute(url.path), force: overwrite)
        return PhotoReport(try await offThread { () throws(RecCore.RecError) in try host.snapshot(request) })
    }

    func runningHost() throws(RecError) -> SessionHost {
        guard let host = host.withLock({ $0 }) else {
            throw RecError(kind: .invalidRequest, message: "the session has not started; call start() first")
        }
        return host
    }
}
