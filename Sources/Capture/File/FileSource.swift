import Foundation
import Media
import RecCore

/// Any video FFmpeg can read, decoded and delivered as if it were a camera. Frames keep the file's
/// own timing: session time = frame pts − first pts, so the same file always gives the same
/// timeline, variable frame rate included.
public final class FileSource: FrameSource {
    public let path: String
    private var demuxer: Demuxer?
    private var decoder: VideoDecoder?
    private var streamIndex = 0
    private var firstPTS: Timestamp?
    private var sequence: Int64 = 0
    private var draining = false
    private var openedFormat = VideoFormat(width: 0, height: 0, pixelFormat: .none)
    private var rate: Rational?

    public init(path: String) {
        self.path = path
    }

    public var format: VideoFormat { openedFormat }
    public var nominalFrameRate: Rational? { rate }
    public var description: String { "file \(path)" }
    public var droppedFrames: Int { 0 }

    public func start() throws(RecError) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .usage("no such file: \(path); check the path given to --source file:")
        }
        do {
            let demuxer = try Demuxer(path: path)
            guard let index = demuxer.bestVideoStream else {
                throw RecError.usage("\(path) has no video stream; give a video file to --source file:")
            }
            let stream = demuxer.streams[index]
            let decoder = try VideoDecoder(parameters: stream.parameters)
            self.demuxer = demuxer
            self.decoder = decoder
            self.streamIndex = index
            self.rate = stream.frameRate
            self.openedFormat = VideoFormat(width: stream.parameters.width, height: stream.parameters.height,
                                            pixelFormat: stream.parameters.pixelFormat)
        } catch let error as RecError {
            throw error
        } catch let error as FFmpegError {
            throw .usage("cannot read \(path) as a video; is it a media file FFmpeg supports?", cause: error.description)
        } catch {
            throw .runtime("cannot open \(path)", cause: "\(error)")
        }
    }

    public func nextFrame() throws(RecError) -> VideoFrame? {
        guard let demuxer, let decoder else { return nil }
        do {
            while true {
                switch try decoder.receive() {
                case .output(let frame):
                    let pts = Timestamp(value: frame.pointer.pointee.pts, timeBase: decoder.timeBase)
                    let first = firstPTS ?? pts
                    firstPTS = first
                    frame.captureTime = Timestamp.microseconds(
                        Timestamp.rescale(pts.value - first.rescaled(to: decoder.timeBase).value,
                                          from: decoder.timeBase, to: .microseconds))
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
            throw error.recError("reading \(path) failed at frame \(sequence)")
        }
    }

    public func stop() {
        decoder = nil
        demuxer = nil
    }
}
