import Foundation
import Media
import RecCore

extension SessionHost {
    /// Writes `[from, to)` of the session as a clip: from the ring when it holds the range, else
    /// from the session's own recording file; waits first for an end in the future (`+20s`).
    /// Runs on the requesting connection's thread; capture and encoding never wait for it. A
    /// wait gives up as soon as `peer` hangs up, so an abandoned save holds nothing. The clip is
    /// listed among the session's saves as made `by` that (nil: a clip for playing, not listed).
    package func save(_ request: SaveRequest, peer: ControlPeer = .none, by: String? = "save") throws(RecError) -> SaveReport {
        if let problem = request.problem() { throw .usage(problem) }
        let file = configuration.recorder.output
        if let file, OutputPath.same(request.output, file.path) {
            throw .usage("\(request.output) is this session's own recording; save the clip under another name")
        }
        try checkNotASegment(request.output)
        try OutputPath.checkWritable(request.output, force: request.force)
        let container = try ContainerFormat.forClip(path: request.output)
        let destinations = try clipDestinations(request)
        // Asked as the session starts (`--to +3s` right after `rec start`): the first pictures are
        // still in the encoder; wait for them as for any end in the future.
        if ring.stats.start == nil, !recorder.isFinished { try waitForRing(until: .zero, peer: peer) }
        guard let parameters = recorder.codecParameters, let ringStart = ring.stats.start, let ringEnd = ring.stats.end else {
            throw .runtime("nothing is recorded yet; try again once the session has frames")
        }
        try container.check(codec: parameters.codecName)
        let stats = recorder.currentStats
        let startedAt = stats.startedAt
        // "Now" is the newest frame captured; the encoder may still hold it, and the save waits.
        let captured = Timestamp.microseconds(stats.lastCaptureTime.rescaled(to: .microseconds).value
                                              + Int64(frameDuration(stats) * 1_000_000))
        let newest = max(ringEnd, captured)
        // "Now" (and the end of `--last`) is the middle of the newest frame, not its end: a
        // camera's frame times sit microseconds off the nominal grid (90 kHz ticks, a measured
        // rate), so ends at "newest + one frame" fell either side of a frame's start and
        // `--last 2s` of a network camera held 60 or 61 frames. Mid-frame, both ends are clear.
        let now = Timestamp(seconds: newest.seconds - frameDuration(stats) / 2)
        // The ring serves a start up to the picture before its first (`RingStats.servesFrom`).
        var timeline = Timeline(availableStart: file != nil ? fileStart : ring.stats.servesFrom ?? ringStart, availableEnd: newest, now: now,
                                wallClockAtZero: startedAt.map { .microseconds(Int64($0.timeIntervalSince1970 * 1_000_000)) })
        if request.last != nil { timeline.availableEnd = max(now, timeline.availableStart) }
        let selection = try request.timeSelection()
        var range = try selection.resolve(on: timeline)
        // What was asked, kept beside what is served: `--last` moves its start up to what is held.
        let asked = min(selection.askedStart(on: timeline) ?? range.lowerBound, range.lowerBound)..<range.upperBound
        // The ring keeps the range's start while the save waits (for the encoder, for its sound).
        let hold = ring.hold(from: range.lowerBound)
        defer { ring.release(hold) }
        try waitForRing(until: range.upperBound, peer: peer)
        // `--last` longer than the ring held when it was asked saves what is held, as it says.
        if selection.clampsStart, file == nil, let start = ring.stats.start, let servesFrom = ring.stats.servesFrom,
           range.lowerBound < servesFrom, start < range.upperBound {
            range = start..<range.upperBound
        }
        let mode: CutPlan.Mode = request.keyframe ? .keyframe : .exact
        // Exact in every player: re-encode the few frames an edit list would have to hide.
        let strategy: CutPlan.Strategy = .spliceReencode
        let source: (any ClipInput)?
        // A long range of a recording file the scan must read (Matroska, fragmented MP4): the
        // clip is written as the range is read (`FileClipReader.cut`), reading it once.
        var streamedFile: String?
        let origin: SaveReport.Source
        // Plan on the packets' own clock: the ring's is the session timeline; a file's starts at
        // its first frame's pts (the encoder delay), which is session time 0.
        var (planFrom, planTo, zero) = (range.lowerBound, range.upperBound, Timestamp.zero)
        // The ring's pictures' capture times by pts: a clip's range reported in the frames' own times.
        var captureTimes: [Int64: Timestamp] = [:]
        // A paced screen's range is of the pictures shown, not captured (`HeldPictures`).
        let paced = recorder.sourceFacts.value?.keyframesByTime == true
        if let servesFrom = ring.stats.servesFrom, range.lowerBound >= servesFrom {
            // Every stream of the range: the pictures and each sound.
            let packets = try ring.snapshot(from: range.lowerBound, to: range.upperBound)
            var clip = ClipSource(packets: packets, described: [StreamParameters(.video, parameters)] + recorder.streams.dropFirst())
            if paced { clip.streams[0].packets = HeldPictures.held(clip.streams[0].packets, from: range.lowerBound, to: range.upperBound) }
            source = clip
            // Only when the session encodes: a copied stream's capture times are arrival times,
            // in decode order, and its timeline is the camera's own pts.
            let encodes = !configuration.recorder.copiesCompressedFrames && !paced
            let pictures = encodes ? packets.filter { $0.stream == .video && $0.captureTime != nil } : []
            captureTimes = Dictionary(pictures.compactMap { p in p.captureTime.map { (p.pts, $0) } }, uniquingKeysWith: { first, _ in first })
            // A range is of capture times: it starts on the first picture captured at or after its
            // start, whose pts may round below it (7 fps in 1/90000), and ends before the first
            // captured at or after its end.
            func firstCaptured(atOrAfter t: Timestamp) -> Timestamp? {
                pictures.filter { p in p.captureTime.map { $0 >= t } ?? false }.map(\.presentationTime).min()
            }
            planFrom = firstCaptured(atOrAfter: range.lowerBound) ?? planFrom
            planTo = firstCaptured(atOrAfter: range.upperBound) ?? planTo
            origin = .ring
            // A start in the gap before the ring's first picture (`servesFrom`) takes the same
            // pictures as one at it; the planner is given the first it has.
            if let start = ring.stats.start { planFrom = max(planFrom, start) }
        } else if let file, file.segments != nil {
            try waitForFile(until: range.upperBound, peer: peer)
            (source, origin) = (try segmentSource(range, newest: newest), .file)
        } else if let file {
            try waitForFile(until: range.upperBound, peer: peer)
            let reader = try FileClipReader(path: file.path)
            (zero, origin) = (reader.start, .file)
            if reader.writesAsItReads(from: range.lowerBound, to: range.upperBound, into: container) {
                (source, streamedFile) = (nil, file.path)
            } else {
                let read = try reader.read(from: range.lowerBound, to: range.upperBound)
                (source, planFrom, planTo) = (paced ? read.source.held(from: read.from, to: read.to) : read.source, read.from, read.to)
            }
        } else {
            throw .unavailableRange(from: range.lowerBound, to: range.upperBound, holder: "the ring",
                                    availableFrom: ring.stats.start ?? .zero, availableTo: ring.stats.end ?? .zero)
        }
        func session(_ t: Timestamp) -> Double { t.seconds - zero.seconds }
        // The same on the frames' own clock, whole microseconds, as their capture times are.
        func exact(_ t: Timestamp, _ zero: Timestamp) -> Timestamp {
            .microseconds(t.rescaled(to: .microseconds).value - zero.rescaled(to: .microseconds).value)
        }
        // Off the live encoder's CPU: a thread of its own at nice +10, one thread per codec, and
        // frames re-encoded as the session encodes them.
        let (output, encoder) = (request.output, configuration.recorder.encoder)
        let written: ClipWriter.Report
        if let path = streamedFile {
            let (from, to) = (range.lowerBound, range.upperBound)
            written = try BackgroundWork.run { () throws(RecError) in
                try FileClipReader(path: path).cut(from: from, to: to, mode: mode, strategy: strategy, into: output,
                                                   container: container, options: .init(sessionEncoder: encoder, codecThreads: 1))
            }
        } else if let source {
            let plan = try CutPlanner.plan(packets: source.timings, timeBase: source.timeBase, from: planFrom, to: planTo,
                                           mode: mode, strategy: strategy)
            // Sound the clip's container cannot hold as recorded (G.711 into MP4), from the ring or
            // the files, is re-encoded there too, off the connection's thread, as the clip is written.
            written = try BackgroundWork.run { () throws(RecError) in
                try ClipWriter.write(source, plan: plan, to: output, container: container,
                                     options: .init(sessionEncoder: encoder, codecThreads: 1))
            }
        } else {
            throw .runtime("nothing to save the clip from")
        }
        let plan = written.plan
        if request.clear { _ = ring.clear(upTo: range.upperBound) }
        let dropped = recorder.droppedFrames(in: range)
        log?.write("saved \(request.output): \(plan.presentedFrames) frames, "
                   + "\(Timestamp(seconds: session(plan.presentedStart)).clockText)–\(Timestamp(seconds: session(plan.presentedEnd)).clockText) from the \(origin.rawValue)")
        if let command = configuration.onSave { runOnSave(command, path: request.output) }
        do { try queueClip(request.output, to: destinations) } catch { log?.write("the clip \(request.output) is not queued for copying: \(error)") }
        let shortfall = SaveShortfall.of(asked: asked, served: range)
        if shortfall == .notHeld {
            log?.write("\(request.output) starts at \(range.lowerBound.clockText), not \(asked.lowerBound.clockText) as asked: "
                       + "that part is no longer held")
        }
        var report = SaveReport(path: request.output,
                          requested: ControlSpan(from: asked.lowerBound.seconds, to: asked.upperBound.seconds),
                          saved: ControlSpan(from: session(plan.presentedStart), to: session(plan.presentedEnd)),
                          frames: plan.presentedFrames, droppedInRange: dropped, bytes: Int(written.bytes),
                          keyframe: plan.keyframesUsed.first.map { session(Timestamp(value: $0, timeBase: plan.timeBase)) },
                          prerollFrames: plan.prerollFrames,
                          source: origin, reencoded: plan.reencodedFrames,
                          trailingHidden: plan.trailingHiddenFrames, mode: SaveReport.Mode(mode),
                          missing: recorder.missingSeconds(in: range))
        report.shortfall = shortfall
        report.exactRequested = asked
        report.exactSaved = (captureTimes[plan.firstPresentedPTS] ?? exact(plan.presentedStart, zero))
            ..< (captureTimes[plan.presentedEndPTS] ?? exact(plan.presentedEnd, zero))
        if let by { noteSaved(report, by: by, uploaded: !destinations.isEmpty) }
        mqtt?.saved(report)
        return report
    }

    /// Waits until the ring holds every packet presented before `end`, or the recording ends.
    /// Packets arrive in decode order and a frame decodes no later than it is presented, so once
    /// a packet decoding at or after `end` is in, every frame before `end` is. Wakes on each packet
    /// (`progress`), at once when the recording ends (a stop), and when `peer` hangs up.
    func waitForRing(until end: Timestamp, peer: ControlPeer) throws(RecError) {
        func done() -> Bool { newestDecodeTime.value.withLock { $0 }.map { $0 >= end } ?? false }
        if done() { return waitForSound(until: end, peer: peer) }
        let current = ring.stats.end ?? .zero
        if end.seconds - current.seconds > 1 {
            log?.write("waiting \(String(format: "%.1f", end.seconds - current.seconds)) s for the end of a save")
        }
        let deadline = Latch.Deadline.after(max(0, end.seconds - current.seconds) + 15)
        switch try waitForProgress(until: deadline, peer: peer, done) {
        case .met, .released: waitForSound(until: end, peer: peer)
        case .timedOut: throw .runtime("the session did not reach \(end.clockText) in time; is the source still delivering frames?")
        }
    }

    /// Sound usually reaches the ring before the pictures (the video encoder looks ahead
    /// further); this waits, at most a second, for the sound a clip ending at `end` plays.
    private func waitForSound(until end: Timestamp, peer: ControlPeer) {
        let sounds = recorder.currentStats.sounds
        guard recorder.soundCodecParameters != nil, sounds.allSatisfy({ $0.failure == nil }) else { return }
        let need = Timestamp(seconds: end.seconds + RingState.leadTime.seconds)
        _ = try? waitForProgress(until: .after(1), peer: peer) { (ring.stats.soundEnd.map { $0 >= need }) ?? false }
    }

    /// Waits until the recording file holds every frame before `end`: a fragment (MP4) or
    /// cluster (Matroska) reaches the disk when the next keyframe arrives.
    func waitForFile(until end: Timestamp, peer: ControlPeer) throws(RecError) {
        let deadline = Latch.Deadline.after(max(0, end.seconds - (recorder.fileComplete?.seconds ?? 0)) + 10)
        let outcome = try waitForProgress(until: deadline, peer: peer) { (recorder.fileComplete.map { $0 >= end }) ?? false }
        if outcome == .timedOut {
            throw .runtime("the recording file has not reached \(end.clockText) yet; try again in a moment")
        }
    }

    /// Waits on `progress` until `condition` holds, the recording ends (`.released`) or
    /// `deadline`; throws `hungUp` as soon as `peer` closes its connection.
    func waitForProgress(until deadline: Latch.Deadline, peer: ControlPeer,
                         _ condition: () -> Bool) throws(RecError) -> Latch.Outcome {
        let progress = self.progress
        let watch = peer.watchHangUp { progress.pulse() }
        defer { watch.cancel() }
        let outcome = progress.wait(until: deadline) { condition() || watch.hasHungUp }
        if watch.hasHungUp { throw Self.hungUp }
        return outcome
    }

    /// Why a save stopped waiting: its client went away (nobody reads this; the log does).
    static let hungUp = RecError.runtime("the client hung up while the save waited; nothing was written")

    /// Runs `--on-save` with the clip's path, on its own thread, never blocking a save.
    func runOnSave(_ command: String, path: String) {
        let log = self.log
        let thread = Thread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command, "rec-on-save", path]
            var environment = ProcessInfo.processInfo.environment
            environment["REC_CLIP"] = path
            process.environment = environment
            do {
                try process.run()
                process.waitUntilExit()
                if process.terminationStatus != 0 {
                    log?.write("--on-save command exited \(process.terminationStatus) for \(path)")
                }
            } catch {
                log?.write("--on-save command could not start: \(error)")
            }
        }
        thread.start()
    }
}
