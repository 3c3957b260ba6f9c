import CaptureSetup
import Foundation
import Media
import RecCore
import Session
import SessionControl

/// Encodes pictures you make or receive into a file, with a preset, as a session records.
///
/// ```swift
/// let writer = try await AssetWriter(url: URL(fileURLWithPath: "out.mp4"), width: 640, height: 360)
/// for n in 0..<90 {
///     // Frame n at n/30 s, in whole microseconds: 0, 33333, 66667, …
///     let frame = try Frame(width: 640, height: 360, time: .microseconds((n * 1_000_000 + 15) / 30))
///     _ = frame.withMutablePlane(0) { bytes, _ in bytes.initializeMemory(as: UInt8.self, repeating: UInt8(n)) }
///     try writer.append(frame)
/// }
/// let summary = try await writer.finish()
/// print(summary)   // 90 frames, 3.000 s
/// ```
/// The file is written as the frames come (fragmented MP4, or Matroska), so whatever was
/// appended survives a crash. Encoding runs on a thread of its own. Back-pressure:
/// ``append(_:)`` blocks its caller while the encoder is two frames behind (like
/// `AVAssetWriterInput.isReadyForMoreMediaData` false), and never drops a frame.
public final class AssetWriter: Sendable {
    /// The file being written.
    public let url: URL
    let session: CaptureSession
    let input: Input

    /// What the writer takes.
    enum Input {
        case pictures(PushedFrames)
        case packets(PushedPackets)
    }

    /// Opens a file for `width`x`height` pictures in `pixelFormat` at about `frameRate` frames
    /// a second (the frames' own times decide when each is shown), encoded with `preset`.
    ///
    /// - Parameters:
    ///   - url: the file to write; its extension picks the container (`.mp4`, `.mkv`, …).
    ///   - width: the pictures' width in pixels.
    ///   - height: the pictures' height in pixels.
    ///   - pixelFormat: the pictures' pixel format, ``PixelFormat/yuv420p`` by default.
    ///   - frameRate: about how many frames a second the pictures come at; 30 by default.
    ///   - preset: nil is ``Preset/default`` (H.264).
    ///   - overwrite: whether to replace the file if it exists.
    /// - Throws: ``RecError/Kind/alreadyExists`` for a file that exists (unless `overwrite`),
    ///   ``RecError/Kind/unsupported`` for a container the preset's codec does not fit,
    ///   ``RecError/Kind/invalidRequest`` for a size or frame rate below 1.
    public init(url: URL, width: Int, height: Int, pixelFormat: PixelFormat = .yuv420p, frameRate: Int = 30,
                preset: Preset? = nil, overwrite: Bool = false) async throws(RecError) {
        guard width > 0, height > 0, frameRate > 0 else {
            throw RecError(kind: .invalidRequest, message: "an AssetWriter needs a size and a frame rate above 0 "
                           + "(\(width)x\(height) at \(frameRate) fps is not); use e.g. 1280x720 at 30")
        }
        let source = PushedFrames(format: VideoFormat(width: width, height: height, pixelFormat: pixelFormat.media), rate: frameRate)
        (self.url, input) = (URL(fileURLWithPath: OutputFile.absolute(url.path)), .pictures(source))
        session = try await Self.open(self.url, preset: preset, overwrite: overwrite, source: source, copying: nil)
    }

    /// Opens a file to store encoded frames as they are, with no re-encoding: frames like
    /// `sample`, from a session that copies its source's stream (a network camera's H.264 or
    /// H.265, or a USB camera's MJPEG, with the `camera-copy` preset).
    ///
    /// The first frame appended should be a keyframe; players start there.
    /// - Throws: ``RecError/Kind/invalidRequest`` for a frame that is not encoded,
    ///   ``RecError/Kind/alreadyExists`` for a file that exists (unless `overwrite`),
    ///   ``RecError/Kind/unsupported`` for a container that cannot hold the codec.
    public init(url: URL, copying sample: Frame, overwrite: Bool = false) async throws(RecError) {
        guard case .packet(_, let parameters) = sample.content, let parameters else {
            throw RecError(kind: .invalidRequest, message: "AssetWriter(url:copying:) stores encoded frames as they are; this frame is a "
                           + "\(sample.pixelFormatName) picture, so use AssetWriter(url:width:height:) to encode it")
        }
        let source = PushedPackets(parameters: parameters)
        (self.url, input) = (URL(fileURLWithPath: OutputFile.absolute(url.path)), .packets(source))
        session = try await Self.open(self.url, preset: .cameraCopy, overwrite: overwrite, source: source, copying: parameters.codecName)
    }

    private static func open(_ url: URL, preset: Preset?, overwrite: Bool, source: any FrameSource & Sendable,
                             copying: String?) async throws(RecError) -> CaptureSession {
        var configuration = CaptureSession.Configuration(source: .testPattern, preset: preset)
        configuration.recordingURL = url
        configuration.overwrites = overwrite
        configuration.pace = .fastest
        let session = try CaptureSession(configuration, source: source, copying: copying)
        try await session.start(waitingForFirstFrame: false)
        return session
    }

    /// Queues `frame` for the file; waits while the writer is two frames behind.
    ///
    /// Frames are shown at their ``Frame/time``, which must increase from one to the next.
    /// A picture may be changed again after this call (it gets pixels of its own first).
    ///
    /// - Throws: ``RecError/Kind/invalidRequest`` for a frame the writer does not take (another
    ///   size or pixel format, a picture for a copying writer, an encoded frame for an encoding
    ///   one); the writer's failure (``RecError/Kind/diskFull``, …) once it has failed, and
    ///   ``RecError/Kind/sessionEnded`` once it has finished.
    public func append(_ frame: Frame) throws(RecError) {
        let queued: Bool
        switch (input, frame.content) {
        case (.pictures(let source), .picture(let picture)):
            guard picture.format == source.format else {
                throw RecError(kind: .invalidRequest, message: "this writer takes \(source.format) frames, not \(picture.format); "
                               + "make the frame with the writer's size and pixel format")
            }
            guard let copy = try? picture.clone() else { throw RecError(kind: .failed, message: "cannot queue the frame: out of memory") }
            copy.captureTime = Timestamp(frame.time)
            queued = source.queue.push(copy)
        case (.packets(let source), .packet(var packet, let parameters)):
            guard parameters?.codecName == source.parameters.codecName else {
                throw RecError(kind: .invalidRequest, message: "this writer stores \(source.parameters.codecName) frames, not \(frame.pixelFormatName)")
            }
            packet.captureTime = Timestamp(frame.time)
            queued = source.queue.push(packet)
        case (.pictures, .packet):
            throw RecError(kind: .invalidRequest, message: "this writer encodes pictures; this frame is already encoded (\(frame.pixelFormatName)): "
                           + "use AssetWriter(url:copying:) to store encoded frames")
        case (.packets, .picture):
            throw RecError(kind: .invalidRequest, message: "this writer stores encoded frames as they are; this frame is a picture: "
                           + "use AssetWriter(url:width:height:) to encode pictures")
        }
        guard queued else {
            let statistics = session.statistics
            throw statistics.failure ?? statistics.recordingFailure
                ?? RecError(kind: .sessionEnded, message: "the writer has finished; make a new AssetWriter to write again")
        }
    }

    /// Writes what is queued, finishes the file and returns its summary.
    ///
    /// - Throws: the encoder's or the file's error, if writing failed.
    @discardableResult
    public func finish() async throws(RecError) -> StopSummary {
        switch input {
        case .pictures(let source): source.queue.close()
        case .packets(let source): source.queue.close()
        }
        let summary = await session.waitUntilFinished()
        if let failure = summary.failure { throw failure }
        return summary
    }
}

/// The pictures an `AssetWriter` is given, as the source its recorder reads: a short blocking
/// queue, closed by `finish`.
final class PushedFrames: FrameSource, @unchecked Sendable {
    let format: VideoFormat
    let nominalFrameRate: Rational?
    let queue = FrameQueue<VideoFrame>(capacity: 2, policy: .block)
    var description: String { "frames appended to an AssetWriter" }
    var droppedFrames: Int { 0 }
    var capabilities: SourceCapabilities { SourceCapabilities(waitsWithoutLoss: true) }

    init(format: VideoFormat, rate: Int) {
        self.format = format
        nominalFrameRate = Rational(Int32(rate), 1)
    }

    func start() {}
    func nextFrame() -> VideoFrame? { queue.pop() }
    func stop() { queue.close() }
}

/// The encoded frames a copying `AssetWriter` is given: the recorder stores them as they are.
final class PushedPackets: FrameSource, CompressedFrames, @unchecked Sendable {
    let parameters: CodecParameters
    let queue = FrameQueue<EncodedPacket>(capacity: 2, policy: .block)
    var format: VideoFormat { VideoFormat(width: parameters.width, height: parameters.height, pixelFormat: .none) }
    var nominalFrameRate: Rational? { nil }
    var description: String { "encoded frames appended to an AssetWriter" }
    var droppedFrames: Int { 0 }
    var capabilities: SourceCapabilities { SourceCapabilities(compressed: self, waitsWithoutLoss: true) }
    var compressedParameters: CodecParameters? { parameters }

    init(parameters: CodecParameters) { self.parameters = parameters }

    func start() {}
    func nextFrame() -> VideoFrame? { nil }
    func nextPacket() -> EncodedPacket? { queue.pop() }
    func stop() { queue.close() }
}
