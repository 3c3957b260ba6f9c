import Capture
import Dispatch
import Foundation
import Media
import RecCore
import Synchronization

/// A recording's sound: the audio thread ("rec.audio") that owns the audio source, the clock
/// model and the encoder, and hands encoded packets to the encode thread (`SoundInbox`), which
/// writes them beside the pictures.
///
/// ```
/// audio thread: source.nextChunk → (pace a stand-in/file to the session clock) → AudioClock.place
///               → AudioPipeline.encode (silence for gaps, drift compensation, AAC/Opus/FLAC) → inbox
/// ```
/// A device opens at once and the pictures wait for its first chunk (`waitUntilFlowing`), since a
/// sound server can take a second or more to send one: the first picture, session time 0 on
/// CLOCK_MONOTONIC (`begin(epoch:)`), then always has sound under it, and sound captured before
/// it is left out. A stand-in or file source starts at session time 0. Nothing here waits for the
/// pictures, except a stand-in or file source with `--pace off`, which is held to the newest
/// captured picture so both advance together. The threads share `SoundSignals`: every wait is on
/// its condition, and a stop wakes it at once.
final class SoundRecorder: Sendable {
    let inbox = SoundInbox()
    let stats = Mutex(SoundStats())
    let encoding: AudioEncoding
    private let pace: RecorderConfiguration.Pace
    private let policy: AudioClock.Policy
    private let signals: SoundSignals
    /// With `--pace off`, how far the pictures may run ahead of the sound.
    static let unpacedLead: Int64 = 500_000

    init(source: sending AudioSource, encoding: AudioEncoding, pace: RecorderConfiguration.Pace, corrects: Bool = true) {
        self.encoding = encoding
        self.pace = pace
        self.policy = corrects ? .standard : .uncorrected
        signals = SoundSignals(.init(flowing: !source.isLive))
        stats.withLock {
            $0.device = source.description
            $0.sampleRate = encoding.sampleRate
            $0.channels = encoding.channels
            $0.encoder = encoding.encoder
        }
        let transfer = Transfer(value: source)
        let thread = Thread { [self] in
            ThreadName.set("rec.audio")
            self.run(transfer.value)
        }
        thread.name = "rec.audio"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// On the capture thread, at the first picture: session time 0 is `epoch` (CLOCK_MONOTONIC ns).
    func begin(epoch value: UInt64) {
        signals.update { if $0.epoch == nil { $0.epoch = value } }
    }

    /// On the capture thread, after each picture.
    func captured(upTo time: Timestamp) {
        let micros = time.rescaled(to: .microseconds).value
        // Only a source held to the pictures waits for them.
        signals.update(wakes: pace == .off) { $0.pictures = micros }
    }

    /// On the capture thread, before the source starts: waits (at most `seconds`) until the
    /// sound source delivers, so the first picture has sound under it. Returns at once for a
    /// stand-in or file, or when the sound has failed or `stopping()` (after `wake()`).
    func waitUntilFlowing(seconds: Double, stopping: () -> Bool) {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9)
        signals.wait(deadline: deadline, interrupted: stopping) { $0.flowing || $0.stopRequested }
    }

    /// The sound stream's parameters, once the source and encoder are open (for the file's
    /// header); the source's error if they could not be opened.
    func parameters(waitingUpTo seconds: Double) throws(RecError) -> CodecParameters {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9)
        signals.wait(deadline: deadline) { $0.opened != nil }
        guard let opened = signals.read({ $0.opened }) else {
            throw .runtime("the sound source did not open within \(Int(seconds)) s; check it with 'rec devices', or record without --audio")
        }
        return try opened.get()
    }

    /// On the capture thread with `--pace off`: waits while the pictures are more than
    /// `unpacedLead` ahead of the sound (a file or the stand-in encodes faster than AAC), so both
    /// advance together; returns when the sound has caught up or ended, or at once when
    /// `stopping()` (after `wake()`).
    func waitForSound(before time: Timestamp, stopping: () -> Bool) {
        let due = time.rescaled(to: .microseconds).value - Self.unpacedLead
        signals.wait(interrupted: stopping) { $0.progress >= due || $0.stopRequested }
    }

    /// Wakes the capture thread's waits (`waitUntilFlowing`, `waitForSound`) to check their
    /// `stopping` again: call after the recording's stop flag is set.
    func wake() {
        signals.wake()
    }

    /// On the capture thread, when capture ends: record sound up to `time`, then stop.
    func end(at time: Timestamp) {
        let micros = time.rescaled(to: .microseconds).value
        signals.update { $0.endOfPictures = micros }
    }

    /// Stops at once (the recording failed, or the sound did not finish in time).
    func requestStop() {
        signals.update { $0.stopRequested = true }
    }

    var isStopping: Bool { signals.read { $0.stopRequested } }

    func waitUntilFinished() {
        signals.wait { $0.finished }
    }

    /// Waits at most `seconds`; false if the audio thread is still running (a device that stopped
    /// answering holds it in a read nothing can interrupt).
    func waitUntilFinished(seconds: Double) -> Bool {
        signals.wait(deadline: DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9)) { $0.finished }
    }

    // MARK: - The audio thread

    private func run(_ source: AudioSource) {
        defer {
            source.stop()
            inbox.close()
            signals.update {
                $0.progress = .max
                $0.flowing = true
                if $0.opened == nil { $0.opened = .failure(.runtime("the recording stopped before its sound opened")) }
                $0.finished = true
            }
        }
        // A device opens at once (its first second of timestamps is unreliable, see `settle`); a
        // stand-in or file, timed by its own samples, once session time 0 is known.
        let opening = DispatchTime.now().uptimeNanoseconds
        if !source.isLive {
            signals.wait { $0.epoch != nil || $0.endOfPictures != .max || $0.stopRequested }
            guard signals.read({ $0.epoch != nil && !$0.stopRequested }) else { return }
        }
        let pipeline: AudioPipeline
        do throws(RecError) {
            try source.start(epoch: source.isLive ? opening : (signals.read { $0.epoch } ?? opening))
            stats.withLock { $0.inputFormat = source.format.description }
            do {
                pipeline = try AudioPipeline(encoding: encoding, input: source.format)
            } catch {
                throw RecError.runtime("cannot open the \(encoding.encoder) encoder for \(source.format)", cause: error.description)
            }
            let parameters = pipeline.parameters
            signals.update { $0.opened = .success(parameters) }
        } catch {
            signals.update { $0.opened = .failure(error) }
            return
        }
        guard let settled = settle(source, opened: opening) else { return }
        encode(source, pipeline: pipeline, shift: settled.shift, backlog: settled.backlog)
    }

    /// Places and encodes the chunks, the backlog first, until the pictures' end or a stop.
    private func encode(_ source: AudioSource, pipeline: AudioPipeline, shift: Int64, backlog: [AudioFrame]) {
        var backlog = backlog[...]
        let epoch = signals.read { $0.epoch } ?? 0
        var clock = AudioClock(outputRate: encoding.sampleRate, inputRate: source.format.sampleRate, policy: policy)
        var level = AudioLevel()
        var started = false
        let emit: (EncodedPacket) throws(FFmpegError) -> Void = { [self] packet throws(FFmpegError) in
            inbox.push(packet)
            stats.withLock { $0.packets += 1 }
        }
        do throws(RecError) {
            while !isStopping {
                guard let chunk = backlog.isEmpty ? try source.nextChunk() : backlog.removeFirst() else { break }
                chunk.time = Timestamp.microseconds(chunk.time.rescaled(to: .microseconds).value - shift)
                let begins = chunk.time.rescaled(to: .microseconds).value
                // The sound is known to be empty up to this chunk (a file whose sound starts late
                // or has a gap): the pictures need not wait for it, or each would wait for the other.
                let ended = signals.update { s -> Bool in
                    if s.progress < begins { s.progress = begins }
                    return begins >= s.endOfPictures
                }
                if ended { break }
                if !source.isLive, !wait(for: chunk.time, epoch: epoch) { break }
                // Sound from before the first picture is not part of the session.
                if chunk.time.seconds + chunk.duration.seconds <= 0 { continue }
                let placement = clock.place(observed: chunk.time, samples: chunk.sampleCount,
                                            position: started ? pipeline.position : nil)
                if !started {
                    // The first placement says where the timeline starts (sound before the first
                    // picture is dropped from the chunk; a late start is silence from 0).
                    pipeline.start(at: placement.start ?? 0)
                    started = true
                }
                do { try pipeline.encode(chunk, placement: placement, emit: emit) } catch {
                    throw error.recError("encoding the sound failed")
                }
                level.add(peak: pipeline.lastPeak, samples: chunk.sampleCount, rate: source.format.sampleRate)
                let (drift, gaps, gapSamples, dropped) = (clock.driftPPM, clock.gaps, clock.gapSamples, clock.droppedSamples)
                let overruns = source.overruns
                stats.withLock {
                    $0.driftPPM = drift
                    $0.gaps = gaps
                    $0.gapSeconds = Double(gapSamples) / Double(encoding.sampleRate)
                    $0.droppedSamples = dropped
                    $0.overruns = overruns
                    $0.peakDBFS = level.peakDBFS
                    $0.lastTime = chunk.time
                }
                let end = begins + chunk.duration.rescaled(to: .microseconds).value
                signals.update { $0.progress = max($0.progress, end) }
            }
            do { try pipeline.finish(emit: emit) } catch { throw error.recError("finishing the sound failed") }
        } catch {
            let at = stats.withLock { $0.lastTime }
            stats.withLock { $0.failure = "the sound from \($0.device) failed at \(at.clockText): \(error.description); the recording goes on without sound" }
            try? pipeline.finish(emit: emit)
        }
    }

    /// A live device is read from the moment the recording starts, and its first chunk lets the
    /// pictures start (`flowing`). Its first timestamps are unreliable (`AudioSource.settling`,
    /// RecCore's `AudioSettling`): the chunks are kept until session time 0 is known and the
    /// times have settled, then timed back from the first settled one by their lengths (no sample
    /// is lost between them), so the sound starts with the pictures. Returns the shift from the
    /// opening instant to session time 0 (µs) and those chunks; nil if stopped first or the
    /// device ended.
    private func settle(_ source: AudioSource, opened: UInt64) -> (shift: Int64, backlog: [AudioFrame])? {
        guard source.isLive else { return (0, []) }
        var settling = AudioSettling(bounds: source.settling)
        var backlog: [AudioFrame] = []
        while !isStopping {
            if signals.read({ $0.epoch == nil && $0.endOfPictures != .max }) { return nil }
            let chunk: AudioFrame
            do throws(RecError) {
                guard let next = try source.nextChunk() else { return nil }
                chunk = next
            } catch {
                stats.withLock { $0.failure = "the sound from \($0.device) failed before it started: \(error.description); the recording has no sound" }
                return nil
            }
            if settling.delivered == 0 { signals.update { $0.flowing = true } }
            settling.add(time: chunk.time.seconds, length: chunk.duration.seconds)
            backlog.append(chunk)
            // Sound read before session time 0 is of no use (the clock drops it): at most the
            // last 1000 chunks are kept.
            if backlog.count > 1000 { backlog.removeFirst(backlog.count - 1000) }
            guard settling.isSettled, let known = signals.read({ $0.epoch }) else { continue }
            let times = AudioSettling.backdated(lengths: backlog.map { $0.duration.rescaled(to: .microseconds).value },
                                                last: chunk.time.rescaled(to: .microseconds).value)
            for (chunk, time) in zip(backlog, times) { chunk.time = .microseconds(time) }
            return ((Int64(known) - Int64(opened)) / 1000, backlog)
        }
        return nil
    }

    /// Holds a chunk of the stand-in tone or a file until its time: the session clock with
    /// `--pace realtime` (as the capture loop paces pictures), the newest captured picture with
    /// `--pace off`. False if stopped.
    private func wait(for time: Timestamp, epoch: UInt64) -> Bool {
        let due = time.rescaled(to: .microseconds).value
        switch pace {
        case .realtime:
            let deadline = UInt64(max(0, Int64(epoch) + due * 1000))
            return !signals.wait(deadline: deadline) { $0.stopRequested }
        case .off:
            signals.wait { $0.pictures >= due || $0.endOfPictures != .max || $0.stopRequested }
            return !isStopping
        }
    }
}
