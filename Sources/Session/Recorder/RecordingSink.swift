import Encoding
import Foundation
import Media
import RecCore

/// The far side of a recording's queue: encodes frames (or takes a camera's own packets), writes
/// the file and hands every packet to the recorder's listener (the ring), with the sound
/// interleaved. Owned by one thread: the encode thread, or the capture thread itself when the
/// recording copies a source that waits for the file anyway (a network camera): each packet then
/// goes to the file and ring where it was read, with no wake of another thread per packet.
final class RecordingSink {
    private let recorder: Recorder
    private var pipeline: EncodingPipeline?
    // `@exclusivity(unchecked)`: the state touched for every packet. This object is owned by one
    // thread and never lends that state across a call that could reach it again, so the runtime's
    // check of each access (~80 instructions under callgrind, several per packet) never fires.
    @exclusivity(unchecked) private var writer: SegmentedWriter?
    @exclusivity(unchecked) private var failed = false
    @exclusivity(unchecked) private var started = false
    @exclusivity(unchecked) private var videoEnd: Timestamp?
    @exclusivity(unchecked) private var soundEnded = Set<StreamID>()
    /// The source's own sound waits until a picture reaches its time: it arrives ahead of the
    /// pictures (a camera's encoder delay), and none may outlast the last picture.
    @exclusivity(unchecked) private var heldSound: [EncodedPacket] = []
    /// What `stats` has not been told yet (`publish(into:)`), so that a packet takes no lock of
    /// its own: the capture thread tells it with its own update, the encode thread once an item.
    @exclusivity(unchecked) private var unpublished = Unpublished()
    /// Whether `take` tells `stats` itself (on the encode thread) or leaves it to the caller.
    private let publishes: Bool
    /// The line last given to `fileCompleteBefore`, which is locked only when it moves.
    @exclusivity(unchecked) private var lastComplete: Timestamp?

    private struct Unpublished {
        var framesEncoded = 0
        var encodedBytes: Int64 = 0
        var packets = 0
        var keyframes = 0
    }

    /// - Parameter publishes: false when the caller moves the counts into `stats` itself
    ///   (`publish(into:)`) with its own update after each item.
    init(_ recorder: Recorder, publishes: Bool = true) {
        self.recorder = recorder
        self.publishes = publishes
    }

    /// Moves what was written since the last call into `stats`: counts, the file and its size.
    func publish(into s: inout RecorderStats) {
        s.framesEncoded += unpublished.framesEncoded
        s.encodedBytes += unpublished.encodedBytes
        s.packets += unpublished.packets
        s.keyframes += unpublished.keyframes
        unpublished = Unpublished()
        if let writer {
            if s.outputPath != writer.path { s.outputPath = writer.path }
            s.outputBytes = writer.bytesWritten
        }
    }

    /// One item from the capture thread. A failure is reported (`Recorder.fail`) and every later
    /// item is ignored.
    func take(_ item: Recorder.CaptureItem) {
        if failed { return }
        do throws(RecError) {
            switch item {
            case .frame(let frame):
                let running: EncodingPipeline
                if let pipeline {
                    running = pipeline
                } else {
                    let (p, w) = try recorder.open(for: frame)
                    (running, pipeline, writer) = (p, p, w)
                }
                do {
                    try running.encode(frame, emit: emitPicture)
                } catch {
                    throw error.recError("encoding failed at frame \(frame.sequence)")
                }
                let encoded = running.framesEncoded
                recorder.stats.withLock {
                    publish(into: &$0)
                    $0.framesEncoded = encoded
                }
            case .packet(let packet):
                if !started { writer = try recorder.openCopy() }
                do { try emitPicture(packet) } catch {
                    throw error.recError("writing the camera's frame at \(packet.presentationTime.clockText) failed")
                }
                unpublished.framesEncoded += 1
                if publishes { recorder.stats.withLock { publish(into: &$0) } }
            case .sound(let packet):
                heldSound.append(packet)
                return
            }
            if !started {
                started = true
                recorder.stats.withLock { if $0.state == .starting { $0.state = .recording } }
                recorder.firstFrame.release()
            }
        } catch {
            failed = true
            recorder.fail(error)
            if !started { recorder.firstFrame.release() }
        }
    }

    /// The source's own sound, read with the picture just taken: held until a picture reaches it.
    func hold(_ packet: consuming EncodedPacket) {
        if failed { return }
        heldSound.append(packet)
    }

    /// After the last item: drains the encoder, lets the sound run up to the last picture,
    /// finishes the file and says the recording is over (`Recorder.waitUntilFinished`).
    func finish() {
        if let pipeline, !failed || writer != nil {
            do { try pipeline.finish(emit: emitPicture) } catch {
                recorder.fail(error.recError("draining the encoder failed"))
            }
            recorder.stats.withLock {
                publish(into: &$0)
                $0.framesEncoded = pipeline.framesEncoded
            }
        }
        try? recorder.releaseSourceSound(&heldSound, before: videoEnd, emit: emit)
        recorder.finishSound(upTo: videoEnd, emit: emit)
        recorder.stats.withLock {
            publish(into: &$0)
            if $0.state != .failed { $0.state = .stopping }
        }
        if let file = writer {
            do { try file.finish() } catch {
                if file.failure != nil { recorder.fileFailed(file, error) } else {
                    recorder.fail(error.recError("finishing \(file.path) failed; the recording up to here is still readable"))
                }
            }
        }
        let bytes = recorder.configuration.output.map {
            (try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int64) ?? 0
        }
        recorder.stats.withLock {
            if let bytes { $0.outputBytes = bytes }
            if $0.state != .failed { $0.state = .finished }
        }
        if !started {
            recorder.startupError.set(.runtime("the source ended before its first frame"))
            recorder.firstFrame.release()
        }
        recorder.done.release()
    }

    /// A picture, after the sound that plays before it: the muxer interleaves. A sound that
    /// ended (failed) holds the other streams back no longer.
    private func emitPicture(_ packet: EncodedPacket) throws(FFmpegError) {
        for id in try recorder.takeSound(ended: &soundEnded, emit: emit) { writer?.ended(id) }
        videoEnd = max(videoEnd ?? packet.endTime, packet.endTime)
        try recorder.releaseSourceSound(&heldSound, before: videoEnd, emit: emit)
        try emit(packet)
    }

    /// One packet of any stream to the file, then to the listener. A failed write ends the file
    /// (cut back to its last complete fragment) but never keeps a packet from the ring: the ring
    /// stays complete up to the newest frame.
    private func emit(_ packet: EncodedPacket) throws(FFmpegError) {
        if let file = writer {
            do throws(FFmpegError) {
                try file.append(packet)
                let complete = file.completeBefore
                if complete != lastComplete {
                    lastComplete = complete
                    recorder.stats.withLock { $0.fileCompleteBefore = complete }
                }
            } catch {
                writer = nil
                recorder.fileFailed(file, error)
            }
        }
        recorder.onPacket(packet)
        unpublished.encodedBytes += Int64(packet.size)
        if packet.stream == .video {
            unpublished.packets += 1
            if packet.isKeyframe { unpublished.keyframes += 1 }
        }
    }
}
