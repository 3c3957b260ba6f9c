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
    private var writer: SegmentedWriter?
    private var failed = false
    private var started = false
    private var videoEnd: Timestamp?
    private var soundEnded = Set<StreamID>()
    /// The source's own sound waits until a picture reaches its time: it arrives ahead of the
    /// pictures (a camera's encoder delay), and none may outlast the last picture.
    private var heldSound: [EncodedPacket] = []

    init(_ recorder: Recorder) {
        self.recorder = recorder
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
                recorder.stats.withLock { $0.framesEncoded = encoded }
            case .packet(let packet):
                if !started { writer = try recorder.openCopy() }
                do { try emitPicture(packet) } catch {
                    throw error.recError("writing the camera's frame at \(packet.presentationTime.clockText) failed")
                }
                recorder.stats.withLock { $0.framesEncoded += 1 }
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

    /// After the last item: drains the encoder, lets the sound run up to the last picture,
    /// finishes the file and says the recording is over (`Recorder.waitUntilFinished`).
    func finish() {
        if let pipeline, !failed || writer != nil {
            do { try pipeline.finish(emit: emitPicture) } catch {
                recorder.fail(error.recError("draining the encoder failed"))
            }
            recorder.stats.withLock { $0.framesEncoded = pipeline.framesEncoded }
        }
        try? recorder.releaseSourceSound(&heldSound, before: videoEnd, emit: emit)
        recorder.finishSound(upTo: videoEnd, emit: emit)
        recorder.stats.withLock { if $0.state != .failed { $0.state = .stopping } }
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
            recorder.startupError.withLock { if $0 == nil { $0 = .runtime("the source ended before its first frame") } }
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
                recorder.fileCompleteBefore.withLock { $0 = complete }
            } catch {
                writer = nil
                recorder.fileFailed(file, error)
            }
        }
        recorder.onPacket(packet)
        let bytes = writer?.bytesWritten ?? 0
        let path = writer?.path
        let picture = packet.stream == .video
        recorder.stats.withLock {
            if let path { $0.outputPath = path }
            $0.encodedBytes += Int64(packet.size)
            if picture {
                $0.packets += 1
                if packet.isKeyframe { $0.keyframes += 1 }
            }
            $0.outputBytes = bytes
        }
    }
}
