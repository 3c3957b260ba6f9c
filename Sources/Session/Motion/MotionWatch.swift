import Dispatch
import Foundation
import Media
import RecCore
import Synchronization

/// A session's motion detector at work (issue 40): the pictures the capture thread hands over
/// (`MotionFeed`) are made small and gray, judged, and turned into levels and events on a thread
/// of its own, written to the index files beside the recording, kept in memory beside the ring,
/// and told to the session (`listener`). The capture thread never waits for it: a copied
/// camera's packets beyond `MotionWatch.mostPending` are left out and decoding starts again at
/// the next keyframe.
package final class MotionWatch: MotionFeed {
    /// What the session hears: each change, and each analysed picture's time (session seconds).
    package struct Listener: Sendable {
        package var changed: @Sendable (MotionTracker.Change) -> Void
        package var analysed: @Sendable (Double) -> Void
        package init(changed: @escaping @Sendable (MotionTracker.Change) -> Void, analysed: @escaping @Sendable (Double) -> Void) {
            self.changed = changed
            self.analysed = analysed
        }
    }

    /// What `rec status` shows.
    package struct Now: Sendable {
        package var moving = false
        package var level = 0.0
        package var events = 0
        package var analysed = 0
        package var skippedPackets = 0
        /// Seconds of CPU the motion thread used, and session seconds it covered.
        package var cpuSeconds = 0.0
        package var lastAnalysed: Double?
        package var indexError: String?
    }

    let configuration: MotionConfiguration
    private let queue = DispatchQueue(label: "rec-motion")
    private let cadence: Mutex<MotionCadence>
    private let pending = Atomic<Int>(0)
    private let listener: Listener
    private let session: String
    private let wallClockAtZero: @Sendable () -> Double?
    /// The analysis state, used on `queue` only (behind a lock that is never contended).
    private let work: Mutex<Analysis>
    package let index = Mutex(MotionIndex())
    private let state = Mutex(Now())
    /// Packets of a copied camera waiting for the motion thread before new ones are left out:
    /// two seconds of a 30-a-second camera.
    static let mostPending = 60

    struct Analysis {
        var detector: MotionDetector
        var tracker: MotionTracker
        var pictures: MotionPictures
        var lines = MotionIndexLineMaker()
        var files: [String: MotionIndexFile] = [:]
        var current: MotionIndexFile?
        var lastTime: Double?
        var skipping = false
    }

    /// `wallClockAtZero` gives the wall clock at session time 0 for each index file's header.
    package init(configuration: MotionConfiguration, session: String, listener: Listener, wallClockAtZero: @escaping @Sendable () -> Double?) {
        self.configuration = configuration
        self.listener = listener
        self.session = session
        self.wallClockAtZero = wallClockAtZero
        cadence = Mutex(MotionCadence(rate: configuration.rate))
        work = Mutex(Analysis(detector: MotionDetector(settings: configuration.detector), tracker: MotionTracker(settings: configuration.tracker),
                              pictures: MotionPictures(rows: configuration.detector.analysisHeight)))
    }

    package var now: Now { state.withLock { $0 } }

    // MARK: MotionFeed, on the capture thread

    package func wants(_ time: Timestamp) -> Bool {
        cadence.withLock { $0.takes(time.seconds) }
    }

    package func take(_ frame: CapturedFrame) {
        // Each JPEG stands alone: only the wanted ones are decoded.
        var intra = false
        if case .packet(_, let time, _, let parameters) = frame, parameters?.codec == .mjpeg {
            guard wants(time) else { return }
            intra = true
        }
        let chosen = intra
        if case .packet = frame {
            guard pending.wrappingAdd(1, ordering: .relaxed).newValue <= Self.mostPending else {
                pending.wrappingSubtract(1, ordering: .relaxed)
                work.withLock { $0.skipping = true }
                state.withLock { $0.skippedPackets += 1 }
                return
            }
        }
        queue.async { [self] in
            let started = Self.threadCPU()
            switch frame {
            case .picture(let picture, _):
                analyse(picture)
            case .packet(let packet, let time, _, let parameters):
                pending.wrappingSubtract(1, ordering: .relaxed)
                decode(packet, time: time, parameters: parameters, chosen: chosen)
            }
            let used = Self.threadCPU() - started
            state.withLock { $0.cpuSeconds += used }
        }
    }

    package func sourceAway() {
        queue.async { [self] in finishEvent() }
    }

    // MARK: On the motion thread

    /// `chosen`: the cadence already took this packet's picture.
    private func decode(_ packet: EncodedPacket, time: Timestamp, parameters: CodecParameters?, chosen: Bool) {
        guard let parameters else { return }
        let frames: [VideoFrame]
        do {
            frames = try work.withLock { w throws(FFmpegError) in
                if w.skipping {
                    w.pictures.skipped()
                    w.skipping = false
                }
                return try w.pictures.decode(packet, time: time, parameters: parameters)
            }
        } catch {
            state.withLock { $0.indexError = "motion: cannot decode the camera's pictures: \(error)" }
            return
        }
        for frame in frames where chosen || wants(frame.captureTime) { analyse(frame) }
    }

    private func analyse(_ frame: VideoFrame) {
        let seconds = frame.captureTime.seconds
        let outcome: (MotionSample, [MotionTracker.Change])? = work.withLock { w in
            guard let small = try? w.pictures.gray(frame), small.width > 0 else { return nil }
            var changes: [MotionTracker.Change] = []
            // A gap of more than two seconds (an outage) ends the motion under way there.
            if let last = w.lastTime, seconds - last > 2 || seconds < last, let end = w.tracker.finish() { changes.append(end) }
            w.lastTime = seconds
            let sample = w.detector.analyse(luma: small.pixels, width: small.width, height: small.height)
            changes += w.tracker.take(sample, at: seconds)
            var lines = w.lines.level(sample.level, at: seconds)
            for change in changes {
                switch change {
                case .started(let e): lines.append(.started(e))
                case .ended(let e): lines.append(.ended(e))
                }
            }
            w.current?.write(lines)
            return (sample, changes)
        }
        guard let (sample, changes) = outcome else { return }
        index.withLock { index in
            index.record(level: sample.level, at: seconds)
            for change in changes {
                switch change {
                case .started(let e), .ended(let e): index.record(e)
                }
            }
        }
        let current = work.withLock { $0.tracker.current }
        state.withLock {
            $0.analysed += 1
            $0.level = sample.level
            $0.moving = current != nil
            $0.lastAnalysed = seconds
            $0.events += changes.filter { if case .started = $0 { true } else { false } }.count
        }
        if let current { index.withLock { $0.record(current) } }
        for change in changes { listener.changed(change) }
        listener.analysed(seconds)
    }

    private func finishEvent() {
        let end = work.withLock { w -> MotionTracker.Change? in
            guard let end = w.tracker.finish() else { return nil }
            if case .ended(let e) = end { w.current?.write(w.lines.flush() + [.ended(e)]) }
            return end
        }
        guard let end else { return }
        if case .ended(let e) = end { index.withLock { $0.record(e) } }
        state.withLock { $0.moving = false }
        listener.changed(end)
    }

    /// Writes a line (a clip saved on motion) into the current index file.
    package func note(_ line: MotionIndexLine) {
        queue.async { [self] in work.withLock { $0.current?.write([line]) } }
    }

    // MARK: Index files, from the writer's threads

    func recordingStarted(_ path: String) {
        queue.sync {
            work.withLock { w in
                do throws(RecError) {
                    let header = MotionIndexLine.header(session: session, wallclock: wallClockAtZero() ?? Date().timeIntervalSince1970,
                                                        rate: configuration.rate)
                    let file = try MotionIndexFile(recording: path, header: header)
                    w.current?.write(w.lines.flush())
                    w.files[path] = file
                    w.current = file
                } catch {
                    state.withLock { $0.indexError = error.message }
                }
            }
        }
    }

    /// Closes the index of a finished recording file: its path and length.
    func recordingFinished(_ path: String) -> (path: String, bytes: Int64)? {
        queue.sync {
            work.withLock { w in
                guard let file = w.files.removeValue(forKey: path) else { return nil }
                if w.current === file {
                    file.write(w.lines.flush())
                    w.current = nil
                }
                return (file.path, file.close())
            }
        }
    }

    /// Ends the motion under way and writes out what is held, when the session stops.
    package func finish() {
        finishEvent()
        queue.sync { work.withLock { $0.current?.write($0.lines.flush()) } }
    }

    static func threadCPU() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
