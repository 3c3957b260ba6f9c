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
/// It starts once the first picture is captured (`begin(epoch:)`: that instant is session time 0
/// on CLOCK_MONOTONIC), so sound and pictures share one timeline; sound captured before it is
/// left out. Nothing here ever waits for the pictures, except a stand-in or file source with
/// `--pace off`, which is held to the newest captured picture so both advance together.
final class SoundRecorder: Sendable {
    let inbox = SoundInbox()
    let stats = Mutex(SoundStats())
    let encoding: AudioEncoding
    private let pace: RecorderConfiguration.Pace
    private let policy: AudioClock.Policy
    private let opened = Mutex<Result<CodecParameters, RecError>?>(nil)
    private let openedSignal = DispatchSemaphore(value: 0)
    private let epoch = Mutex<UInt64?>(nil)
    private let epochSignal = DispatchSemaphore(value: 0)
    private let stopRequested = Atomic<Bool>(false)
    /// Microseconds of the newest picture captured (for `--pace off`).
    private let pictures = Atomic<Int64>(.min)
    /// Microseconds of the end of the last picture, once capture has ended: sound goes on up to
    /// there and stops (`.max` while capturing).
    private let endOfPictures = Atomic<Int64>(.max)
    private let done = DispatchSemaphore(value: 0)
    /// Microseconds of the end of the newest sound encoded (`.max` once the thread has ended).
    private let progress = Atomic<Int64>(.min)
    /// With `--pace off`, how far the pictures may run ahead of the sound.
    static let unpacedLead: Int64 = 500_000

    init(source: sending AudioSource, encoding: AudioEncoding, pace: RecorderConfiguration.Pace, corrects: Bool = true) {
        self.encoding = encoding
        self.pace = pace
        self.policy = corrects ? .standard : .uncorrected
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
        let first = epoch.withLock { e -> Bool in
            defer { if e == nil { e = value } }
            return e == nil
        }
        if first { epochSignal.signal() }
    }

    /// On the capture thread, after each picture.
    func captured(upTo time: Timestamp) {
        pictures.store(time.rescaled(to: .microseconds).value, ordering: .releasing)
    }

    /// The sound stream's parameters, once the source and encoder are open (for the file's
    /// header); the source's error if they could not be opened.
    func parameters(waitingUpTo seconds: Double) throws(RecError) -> CodecParameters {
        if openedSignal.wait(timeout: .now() + seconds) == .timedOut {
            throw .runtime("the sound source did not open within \(Int(seconds)) s; check it with 'rec devices', or record without --audio")
        }
        openedSignal.signal()
        return try opened.withLock { $0! }.get()
    }

    /// On the capture thread with `--pace off`: waits while the pictures are more than
    /// `unpacedLead` ahead of the sound (a file or the stand-in encodes faster than AAC), so both
    /// advance together; returns at once when the sound has ended or `stopping()`.
    func waitForSound(before time: Timestamp, stopping: () -> Bool) {
        let due = time.rescaled(to: .microseconds).value - Self.unpacedLead
        while progress.load(ordering: .acquiring) < due, !stopping(), !isStopping {
            var ts = timespec(tv_sec: 0, tv_nsec: 1_000_000)
            nanosleep(&ts, nil)
        }
    }

    /// On the capture thread, when capture ends: record sound up to `time`, then stop.
    func end(at time: Timestamp) {
        endOfPictures.store(time.rescaled(to: .microseconds).value, ordering: .releasing)
        epochSignal.signal()
    }

    /// Stops at once (the recording failed, or the sound did not finish in time).
    func requestStop() {
        stopRequested.store(true, ordering: .releasing)
        epochSignal.signal()
    }

    var isStopping: Bool { stopRequested.load(ordering: .acquiring) }

    func waitUntilFinished() {
        done.wait()
        done.signal()
    }

    /// Waits at most `seconds`; false if the audio thread is still running (a device that stopped
    /// answering holds it in a read nothing can interrupt).
    func waitUntilFinished(seconds: Double) -> Bool {
        if done.wait(timeout: .now() + seconds) == .timedOut { return false }
        done.signal()
        return true
    }

    // MARK: - The audio thread

    private func run(_ source: AudioSource) {
        defer {
            progress.store(.max, ordering: .releasing)
            source.stop()
            inbox.close()
            if opened.withLock({ $0 == nil }) { publish(.failure(.runtime("the recording stopped before its sound opened"))) }
            done.signal()
        }
        // A device opens at once (its first second of timestamps is unreliable, see below); a
        // stand-in or file, timed by its own samples, once session time 0 is known.
        let opening = DispatchTime.now().uptimeNanoseconds
        if !source.isLive {
            epochSignal.wait()
            guard epoch.withLock({ $0 }) != nil, !isStopping else { return }
        }
        let pipeline: AudioPipeline
        do throws(RecError) {
            try source.start(epoch: source.isLive ? opening : (epoch.withLock { $0 } ?? opening))
            stats.withLock { $0.inputFormat = source.format.description }
            do {
                pipeline = try AudioPipeline(encoding: encoding, input: source.format)
            } catch {
                throw RecError.runtime("cannot open the \(encoding.encoder) encoder for \(source.format)", cause: error.description)
            }
            publish(.success(pipeline.parameters))
        } catch {
            publish(.failure(error))
            return
        }
        guard let settled = settle(source, opened: opening) else { return }
        let shift = settled.shift
        var backlog = settled.backlog
        let epoch = epoch.withLock { $0 } ?? opening
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
                if chunk.time.rescaled(to: .microseconds).value >= endOfPictures.load(ordering: .acquiring) { break }
                // The sound is known to be empty up to this chunk (a file whose sound starts late
                // or has a gap): the pictures need not wait for it, or each would wait for the other.
                let begins = chunk.time.rescaled(to: .microseconds).value
                if progress.load(ordering: .acquiring) < begins { progress.store(begins, ordering: .releasing) }
                if !source.isLive, !wait(for: chunk.time, epoch: epoch) { break }
                // Sound from before the first picture is not part of the session.
                if chunk.time.seconds + chunk.duration.seconds <= 0 { continue }
                let placement = clock.place(observed: chunk.time, samples: chunk.sampleCount,
                                            position: started ? pipeline.position : nil)
                if !started {
                    // The first placement says where the timeline starts (sound before the first
                    // picture is dropped from the chunk).
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
                progress.store((chunk.time.rescaled(to: .microseconds).value + chunk.duration.rescaled(to: .microseconds).value),
                               ordering: .releasing)
            }
            do { try pipeline.finish(emit: emit) } catch { throw error.recError("finishing the sound failed") }
        } catch {
            let at = stats.withLock { $0.lastTime }
            stats.withLock { $0.failure = "the sound from \($0.device) failed at \(at.clockText): \(error.description); the recording goes on without sound" }
            try? pipeline.finish(emit: emit)
        }
    }

    /// libavdevice's PulseAudio input stamps a new stream's first packets with a latency figure
    /// from before the server has reported one, so they read up to 0.72 s early and advance 1.5
    /// times too fast for one to three seconds, while the samples themselves arrive complete and in
    /// real time (measured against a null sink's monitor, whose first chunk took 1.9 s). A device
    /// is therefore opened as soon as the recording starts and read until session time 0 is known
    /// and its timestamps have settled (`SettlingWindow`); the chunks read meanwhile are kept and
    /// timed back from the first settled one by their lengths (no sample is lost between them),
    /// so the sound still starts with the pictures. Returns the shift from the opening instant to
    /// session time 0 (µs) and those chunks; nil if stopped first or the device ended.
    private func settle(_ source: AudioSource, opened: UInt64) -> (shift: Int64, backlog: [AudioFrame])? {
        guard source.isLive else { return (0, []) }
        var steady = SettlingWindow()
        var backlog: [AudioFrame] = []
        while !isStopping {
            let known = epoch.withLock { $0 }
            if known == nil && endOfPictures.load(ordering: .acquiring) != .max { return nil }
            let waited = DispatchTime.now().uptimeNanoseconds - opened
            let least = (source as? DeviceAudioSource)?.backend == .pulse ? Self.deviceSettling.lowerBound : 0
            if let known, waited >= least, steady.isSteady || waited >= Self.deviceSettling.upperBound {
                // Each earlier chunk ends where the next begins.
                for i in backlog.indices.dropLast().reversed() {
                    let next = backlog[i + 1].time.rescaled(to: .microseconds).value
                    backlog[i].time = .microseconds(next - backlog[i].duration.rescaled(to: .microseconds).value)
                }
                // Sound read before session time 0 is of no use (the clock drops it): at most the
                // last 1000 chunks are kept.
                return ((Int64(known) - Int64(opened)) / 1000, backlog)
            }
            do throws(RecError) {
                guard let chunk = try source.nextChunk() else { return nil }
                steady.add(time: chunk.time.seconds, length: chunk.duration.seconds)
                backlog.append(chunk)
                if backlog.count > 1000 { backlog.removeFirst(backlog.count - 1000) }
            } catch {
                stats.withLock { $0.failure = "the sound from \($0.device) failed before it started: \(error.description); the recording has no sound" }
                return nil
            }
        }
        return nil
    }

    /// How long a device's sound is read and left out after it opens: at least the lower bound,
    /// and until its timestamps advance with its samples (`SettlingWindow`), at most the upper.
    static let deviceSettling: ClosedRange<UInt64> = 1_000_000_000...5_000_000_000

    private func publish(_ result: Result<CodecParameters, RecError>) {
        opened.withLock { $0 = result }
        openedSignal.signal()
    }

    /// Holds a chunk of the stand-in tone or a file until its time: the wall clock with
    /// `--pace realtime`, the newest captured picture with `--pace off`. False if stopped.
    private func wait(for time: Timestamp, epoch: UInt64) -> Bool {
        let due = time.rescaled(to: .microseconds).value
        while !isStopping {
            switch pace {
            case .realtime:
                let now = Int64(DispatchTime.now().uptimeNanoseconds) - Int64(epoch)
                if now >= due * 1000 { return true }
                var ts = timespec(tv_sec: 0, tv_nsec: Int(min(due * 1000 - now, 20_000_000)))
                nanosleep(&ts, nil)
            case .off:
                if pictures.load(ordering: .acquiring) >= due || endOfPictures.load(ordering: .acquiring) != .max { return true }
                var ts = timespec(tv_sec: 0, tv_nsec: 1_000_000)
                nanosleep(&ts, nil)
            }
        }
        return false
    }
}

/// Whether a device's timestamps have settled: over the last half second of chunks they advanced
/// by as much as the chunks' own length, within 5 ms. (libavdevice's pulse input first stamps
/// them 1.5 times too fast while its latency estimate converges: measured.)
struct SettlingWindow {
    private var chunks: [(time: Double, length: Double)] = []

    mutating func add(time: Double, length: Double) {
        chunks.append((time, length))
        while chunks.count > 1, chunks[chunks.count - 1].time - chunks[0].time > 0.5 { chunks.removeFirst() }
    }

    var isSteady: Bool {
        guard let first = chunks.first, let last = chunks.last, last.time - first.time >= 0.4 else { return false }
        let played = chunks.dropLast().reduce(0) { $0 + $1.length }
        return abs((last.time - first.time) - played) <= 0.005
    }
}
