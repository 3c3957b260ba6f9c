import Dispatch
import Foundation
import Media
import RecCore
import Synchronization

/// A running background session: the recorder, the ring it fills, and the answers to control
/// requests. The control server calls `handle` on each connection's thread, concurrently; all
/// state here is either immutable, behind the recorder's and ring's own locks, or in `Mutex`es.
package final class SessionHost: ControlHandler {
    package let configuration: SessionConfiguration
    package let recorder: Recorder
    package let ring: PacketRing
    let log: SessionLog?
    /// Released by the first `stop()`.
    private let stopped = Latch()
    /// Pulsed by the encode thread after every packet it hands the ring (and the file); released
    /// when the recording has ended, so a save waiting for the future wakes as the ring moves and
    /// at once when a stop ends the recording.
    let progress = Latch()
    private let stopOnce = Mutex(false)
    /// The decode time of the newest packet in the ring: every frame presented before it is in.
    let newestDecodeTime: NewestDecodeTime
    /// The live page and publishers, fed from the encode thread next to the ring.
    let services: SessionServices
    /// The `--upload` queue: the session's own, or one made by the first `rec save --upload`.
    let uploads: Mutex<Uploader?>
    /// `--motion`: the detector at work, and what the session does with its events.
    let motion: MotionWatch?
    let motionReactor: MotionReactor?
    let mqtt: SessionMQTT?
    let motionSource: MotionSourceReader?
    /// The clips this session wrote, newest last (`GET /api/recordings`); bounded.
    let savedClips = Mutex<[SavedClip]>([])

    /// Starts recording (the source moves to the capture thread) into the ring and the file.
    package init(configuration: SessionConfiguration, source: sending FrameSource, sounds: sending [AudioSource] = [],
                log: SessionLog? = nil) {
        self.configuration = configuration
        let ring = PacketRing(limits: configuration.ring)
        self.ring = ring
        self.log = log
        let newest = NewestDecodeTime()
        self.newestDecodeTime = newest
        let services = SessionServices()
        self.services = services
        let progress = self.progress
        uploads = Mutex(configuration.uploader)
        var recording = configuration.recorder
        if let uploader = configuration.uploader { recording.output?.observer = uploader }
        var watch: MotionWatch?, reactor: MotionReactor?
        if let motion = configuration.motion {
            let made = MotionReactor(configuration: motion)
            watch = MotionWatch(configuration: motion, session: configuration.name, listener: made.listener) { [weak made] in made?.startedAt }
            reactor = made
        }
        if let watch {
            // With a motion stream of its own, the recorded stream is not decoded for motion.
            if configuration.motionSource == nil { recording.motion = watch }
            if let next = recording.output.map({ $0.observer }) { recording.output?.observer = MotionFileObserver(watch: watch, next: next) }
        }
        (motion, motionReactor) = (watch, reactor)
        var broker: SessionMQTT?
        if let address = configuration.mqtt {
            do {
                broker = try SessionMQTT(address: address, session: configuration.name)
            } catch {
                log?.write("mqtt: \(error.message)")
            }
        }
        mqtt = broker
        let recorder = Recorder(source: source, sounds: sounds, configuration: recording, onPacket: { packet in
            ring.append(packet)
            if packet.stream == .video { newest.value.withLock { $0 = packet.decodeTime } }
            services.fanOut(packet)
            progress.pulse()
        }, onOutage: { text in
            // Logged, and a status waiting for an error wakes: no packet comes while the source is away.
            log?.write(text)
            progress.pulse()
        })
        self.recorder = recorder
        if let url = configuration.motionSource, let watch {
            motionSource = MotionSourceReader(url: url, watch: watch, sessionZero: { [weak recorder] in
                recorder?.currentStats.startedAt?.timeIntervalSince1970
            }, log: log)
        } else {
            motionSource = nil
        }
        reactor?.attach(self)
        if let broker {
            broker.attach(self)
            let name = configuration.name
            reactor?.subscribers.withLock {
                $0.append { [weak broker, weak recorder] notice in
                    broker?.tell(notice, session: name, wallclock: recorder?.currentStats.startedAt?.timeIntervalSince1970)
                }
            }
        }
        // Waits for the recording to end: a recording that ended by itself (its `--duration`, the
        // source's end) stops the session; a failed one waits for `stop`, so its ring stays saveable.
        let watcher = Thread { [weak self] in
            recorder.waitUntilFinished()
            progress.release()
            if recorder.currentStats.state == .finished { _ = self?.stop() }
        }
        watcher.name = "rec-session-end"
        watcher.start()
    }

    package func handle(_ request: ControlRequest) -> ControlReply {
        handle(request, peer: .none)
    }

    /// A save from `peer` gives up while it waits if `peer` hangs up.
    package func handle(_ request: ControlRequest, peer: ControlPeer) -> ControlReply {
        switch request.command {
        case .hello: return .ok(.hello(HelloBody(session: configuration.name, pid: getpid())))
        case .status(let status):
            do { return .ok(.status(try self.status(status, peer: peer))) } catch { return ControlReply(error) }
        case .save(let save):
            do { return .ok(.save(try self.save(save, peer: peer, by: "save"))) } catch {
                log?.write("save to \(save.output) failed: \(error)")
                return ControlReply(error)
            }
        case .snapshot(let snapshot):
            do { return .ok(.snapshot(try self.snapshot(snapshot))) } catch { return ControlReply(error) }
        case .stop:
            return .ok(.stop(stop()))
        case .events(let events):
            do { return .ok(.events(try self.events(events))) } catch { return ControlReply(error) }
        case .control(let control):
            do {
                let controls = try recorder.controls.submit(control.settings.isEmpty ? nil : control.settings)
                if !control.settings.isEmpty { log?.write("controls set: \(control.settings.map(\.description).joined(separator: " "))") }
                return .ok(.control(CameraControlReport(controls: controls.map(ControlState.init))))
            } catch { return ControlReply(error) }
        }
    }

    /// Finishes the recording (once) and says the session may exit.
    package func stop() -> StopSummary {
        // A clip gathering on motion is saved with what it holds while the ring still runs.
        motionReactor?.stopping(at: motion?.now.lastAnalysed)
        recorder.requestStop()
        recorder.waitUntilFinished()
        motionSource?.stop()
        motion?.finish()
        mqtt?.stop()
        let s = recorder.currentStats
        var summary = StopSummary(path: s.outputPath, duration: s.framesCaptured > 0 ? s.lastCaptureTime.seconds + frameDuration(s) : 0,
                                  frames: s.framesCaptured, dropped: s.droppedLate + s.droppedBySource,
                                  bytes: Int(s.outputBytes), error: s.lastError)
        summary.exactDuration = exactDuration(s)
        summary.failure = s.failure ?? s.fileFailure
        let first = stopOnce.withLock { done in
            defer { done = true }
            return !done
        }
        if first {
            log?.write("stopped: \(s.framesCaptured) frames, dropped \(s.droppedLate) late + \(s.droppedBySource) by the source"
                       + (s.lastError.map { ", error: \($0)" } ?? ""))
            stopped.release()
        }
        return summary
    }

    /// Blocks until `stop` has been asked for, or the recording ended by itself (its `--duration`
    /// or the source's end) — a failed recording waits for `stop`, so its ring stays saveable.
    package func waitUntilStopRequested() {
        stopped.wait()
    }

    /// The newest frame's capture time plus one frame at the source's nominal rate, in
    /// microseconds (the frames' own clock); nil without frames or a nominal rate.
    func exactDuration(_ s: RecorderStats) -> Timestamp? {
        guard s.framesCaptured > 0 else { return .zero }
        guard let rate = recorder.sourceRate, rate.num > 0, rate.den > 0 else { return nil }
        let frame = Timestamp.rescale(1, from: Rational(rate.den, rate.num), to: .microseconds)
        return .microseconds(s.lastCaptureTime.rescaled(to: .microseconds).value + frame)
    }

    func frameDuration(_ s: RecorderStats) -> Double {
        s.realFrameRate > 0 ? 1 / s.realFrameRate : 0
    }

    package func status() -> StatusBody {
        let s = recorder.currentStats
        let r = ring.stats
        let state: SessionState = switch s.state {
        case .starting: .starting
        case .recording: .recording
        case .stopping, .finished: .stopping
        case .failed: .failed
        }
        let uptime = s.startedAt.map { Date().timeIntervalSince($0) }
        var body = StatusBody(state: state, session: configuration.name, source: s.source, mode: s.mode, uptime: uptime,
                          frames: s.framesCaptured, fps: (s.realFrameRate * 100).rounded() / 100,
                          droppedLate: s.droppedLate, droppedByDriver: s.droppedBySource, encoderLagFrames: s.encoderLag,
                          bitrate: Int(s.bitrate), ringSpan: r.span.seconds, ringBytes: r.bytes,
                          output: s.outputPath, outputBytes: Int(s.outputBytes), lastError: s.lastError,
                          extra: ["ring_start": String(format: "%.3f", r.start?.seconds ?? 0),
                                  "ring_end": String(format: "%.3f", r.end?.seconds ?? 0),
                                  "gaps": String(s.gaps), "time_source": s.wallClockSource ?? "arrival"]
                            .merging(s.lastGap.map { ["last_gap": $0] } ?? [:]) { a, _ in a }.merging(segmentStatus) { a, _ in a }.merging(services.status) { a, _ in a }
                            .merging(uploads.withLock { $0 }?.status ?? [:]) { a, _ in a }.merging(motionStatus) { a, _ in a }.merging(mqtt?.status ?? [:]) { a, _ in a })
        body.audio = s.sound.map(\.status)
        if s.sounds.count > 1 { body.audioTracks = s.sounds.map(\.status) }
        return body
    }

    package func snapshot(_ request: SnapshotRequest) throws(RecError) -> SnapshotReport {
        if let file = configuration.recorder.output, OutputPath.same(request.output, file.path) {
            throw .usage("\(request.output) is this session's own recording; save the snapshot under another name")
        }
        let ext = (request.output as NSString).pathExtension.lowercased()
        guard ext == "jpg" || ext == "jpeg" else { throw .usage("snapshots are JPEG pictures; give a name ending in .jpg") }
        try OutputPath.checkWritable(request.output, force: request.force)
        if recorder.latestFrame == nil, let jpeg = recorder.latestCompressedFrame, recorder.codecParameters?.codec == .mjpeg {
            // A copy recording: the camera's own JPEG is the snapshot.
            guard FileManager.default.createFile(atPath: request.output, contents: Data(jpeg.data)) else {
                throw .runtime("cannot write the snapshot \(request.output)")
            }
            let size = recorder.codecParameters.map { (width: $0.width, height: $0.height) }
            var report = SnapshotReport(path: request.output, width: size?.width, height: size?.height, bytes: jpeg.data.count,
                                        time: jpeg.presentationTime.seconds)
            report.exactTime = jpeg.presentationTime
            return report
        }
        guard let frame = try newestPicture() else {
            throw .runtime("no frame has been captured yet; try again in a moment")
        }
        do {
            let bytes = try JPEGWriter.write(frame, to: request.output)
            var report = SnapshotReport(path: request.output, width: frame.format.width, height: frame.format.height,
                                        bytes: bytes, time: frame.captureTime.seconds)
            report.exactTime = frame.captureTime
            return report
        } catch {
            throw error.recError("cannot write the snapshot \(request.output)")
        }
    }
}

extension SessionHost {
    /// The newest picture: the encoder's last frame, or for a copy session the newest picture the
    /// camera sent, decoded from the ring's last keyframe on (`NewestPicture`), not the keyframe.
    func newestPicture() throws(RecError) -> VideoFrame? {
        guard recorder.latestFrame == nil, let parameters = recorder.codecParameters,
              parameters.codec == .h264 || parameters.codec == .hevc, let end = ring.stats.end else {
            return try recorder.latestPicture()
        }
        let packets = try ring.snapshot(from: .microseconds(end.rescaled(to: .microseconds).value - 1), to: end)
        do {
            if let frame = try NewestPicture.decode(packets, parameters: parameters) { return frame }
        } catch {
            throw error.recError("cannot decode the camera's newest picture")
        }
        return try recorder.latestPicture()
    }
}

/// The decode time of the newest packet the encoder produced, shared with the encode thread.
final class NewestDecodeTime: Sendable {
    let value = Mutex<Timestamp?>(nil)
}
