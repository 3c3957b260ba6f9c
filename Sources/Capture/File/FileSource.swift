import Foundation
import Media
import RecCore

/// Any video FFmpeg can read, decoded and delivered as if it were a camera. Frames keep the file's
/// own timing: session time = frame pts − first pts, so the same file always gives the same
/// timeline, variable frame rate included.
///
/// A FIFO is read as a live stream: rec waits for a writer and records what it sends until it
/// closes its end (a container that needs no seeking: Matroska, NUT, MPEG-TS, raw H.264). A stop
/// (`interrupt`, set by `Recorder.requestStop`) ends any wait at once, writer or not.
package final class FileSource: FrameSource {
    package let path: String
    package let interrupt = InterruptFlag()
    private var demuxer: Demuxer?
    private var decoder: VideoDecoder?
    private var streamIndex = 0
    private var firstPTS: Timestamp?
    private var sequence: Int64 = 0
    private var draining = false
    private var openedFormat = VideoFormat(width: 0, height: 0, pixelFormat: .none)
    private var rate: Rational?
    private var lastTime: Timestamp = .zero

    /// Decoder threads: half the cores. The capture thread decodes while the encoder's own threads
    /// encode, so libavcodec's default (a frame thread per core, plus one) only oversubscribes
    /// the machine; on 2 cores a 1080p file recorded 4–8 % faster with 1 thread (as fast as the
    /// ffmpeg CLI, which alternates decoding and encoding) and peaked 9 MB lower.
    static let decoderThreads = max(1, ProcessInfo.processInfo.activeProcessorCount / 2)

    package init(path: String) {
        self.path = path
        var info = stat()
        isRegularFile = stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    package var format: VideoFormat { openedFormat }
    package var nominalFrameRate: Rational? { rate }
    package var description: String { "file \(path)" }
    package var droppedFrames: Int { 0 }
    /// A stop's `interrupt` ends a wait for a FIFO's writer or its next bytes. A regular file loses
    /// nothing by waiting for the encoder; a FIFO's writer would be held up, so its late frames
    /// are dropped as a camera's are.
    package var capabilities: SourceCapabilities { SourceCapabilities(interrupt: interrupt, waitsWithoutLoss: isRegularFile) }
    private let isRegularFile: Bool

    package func start() throws(RecError) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw RecError.usage("no such file: \(path); check the path given to --source file:").because(.notFound)
        }
        do {
            let demuxer = try Demuxer(path: path, interrupt: interrupt)
            guard let index = demuxer.bestVideoStream else {
                throw RecError.usage("\(path) has no video stream; give a video file to --source file:")
            }
            let stream = demuxer.streams[index]
            let decoder = try VideoDecoder(parameters: stream.parameters, threads: Self.decoderThreads)
            self.demuxer = demuxer
            self.decoder = decoder
            self.streamIndex = index
            self.rate = stream.frameRate
            self.openedFormat = VideoFormat(width: stream.parameters.width, height: stream.parameters.height,
                                            pixelFormat: stream.parameters.pixelFormat)
        } catch let error as RecError {
            throw error
        } catch let error as FFmpegError where interrupt.isSet {
            throw stoppedBeforeStart(cause: error)
        } catch let error as FFmpegError where Demuxer.isFIFO(path) {
            throw unreadableStream(cause: error)
        } catch let error as FFmpegError {
            throw .usage("cannot read \(path) as a video; is it a media file FFmpeg supports?", cause: error.description)
        } catch {
            throw .runtime("cannot open \(path)", cause: "\(error)")
        }
    }

    package func nextFrame() throws(RecError) -> VideoFrame? {
        guard let demuxer, let decoder else { return nil }
        do {
            while true {
                switch try decoder.receive() {
                case .output(let frame):
                    frame.captureTime = sessionTime(of: frame, timeBase: decoder.timeBase)
                    frame.sequence = sequence
                    sequence += 1
                    return frame
                case .endOfStream:
                    return nil
                case .needsInput:
                    if draining { return nil }
                    if let packet = try demuxer.read() {
                        if packet.streamIndex == streamIndex { try decoder.send(packet) }
                    } else {
                        draining = true
                        try decoder.send(nil)
                    }
                }
            }
        } catch {
            // A stop while waiting for data is the end of the recording, not a failure.
            if interrupt.isSet { return nil }
            if sequence == 0, demuxer.isStream { throw unreadableStream(cause: error) }
            throw error.recError("reading \(path) failed at frame \(sequence)")
        }
    }

    /// A FIFO whose stream libavformat cannot read without seeking (an MP4 with its index at the end).
    private func unreadableStream(cause: FFmpegError) -> RecError {
        .usage("cannot read the stream from the FIFO \(path); send a container that needs no seeking "
               + "(Matroska, NUT, MPEG-TS, fragmented MP4: e.g. ffmpeg ... -f nut \(path))", cause: cause.description)
    }

    private func stoppedBeforeStart(cause: FFmpegError) -> RecError {
        guard Demuxer.isFIFO(path) else {
            return .runtime("stopped while opening \(path); nothing was recorded", cause: cause.description)
        }
        return .runtime("nothing arrived from the FIFO \(path) before rec stopped waiting (a stop, or the start timeout), "
                        + "so nothing was recorded; start the program that writes into it (e.g. ffmpeg ... -f nut \(path)) "
                        + "first, or just after rec",
                        cause: cause.description)
    }

    /// pts − first pts, in microseconds. A frame without a usable timestamp (raw .h264 streams
    /// have none, or repeat one) comes one nominal frame after the one before it, so the timeline
    /// always advances.
    private func sessionTime(of frame: VideoFrame, timeBase: Rational) -> Timestamp {
        let raw = frame.pointer.pointee.pts
        if raw == Int64.min { return sequence == 0 ? .zero : nextAfterLast() }
        let first = firstPTS ?? Timestamp(value: raw, timeBase: timeBase)
        firstPTS = first
        let time = Timestamp.microseconds(Timestamp.rescale(raw - first.value, from: timeBase, to: .microseconds))
        if sequence > 0 && time <= lastTime { return nextAfterLast() }
        lastTime = time
        return time
    }

    private func nextAfterLast() -> Timestamp {
        let step = rate.map { Timestamp.rescale(1, from: $0.inverted, to: .microseconds) } ?? 33_333
        lastTime = .microseconds(lastTime.value + max(1, step))
        return lastTime
    }

    package func stop() {
        decoder = nil
        demuxer = nil
    }
}
