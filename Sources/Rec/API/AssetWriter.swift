import CaptureSetup
import Foundation
import Media
import RecClient
import RecCore
import Session

/// Encodes pictures you make or receive into a file, with a preset, as a session records.
///
/// ```swift
/// let writer = try AssetWriter(path: "out.mp4", width: 640, height: 360)
/// for n in 0..<90 {
///     let frame = try Frame(width: 640, height: 360, time: .milliseconds(n * 1000 / 30))
///     frame.withMutablePlane(0) { bytes, _ in bytes.initializeMemory(as: UInt8.self, repeating: UInt8(n)) }
///     try writer.append(frame)
/// }
/// let summary = try await writer.finish()
/// ```
/// The file is written as the frames come (fragmented MP4, or Matroska), so whatever was
/// appended survives a crash. Encoding runs on a thread of its own; ``append(_:)`` waits while
/// the encoder is two frames behind.
public final class AssetWriter: Sendable {
    /// The file being written.
    public let path: String
    let session: CaptureSession
    let source: PushedFrames

    /// Opens `path` for `width`x`height` pictures in `pixelFormat` at about `frameRate` frames
    /// a second (the frames' own times decide when each is shown).
    ///
    /// - Parameters:
    ///   - preset: a preset by name (`rec presets`); nil is `default` (H.264).
    /// - Throws: a usage error for a path that exists (unless `overwrite`), a container the
    ///   preset's codec does not fit, or a size or pixel format FFmpeg does not know.
    public init(path: String, width: Int, height: Int, pixelFormat: String = "yuv420p", frameRate: Int = 30,
                preset: String? = nil, overwrite: Bool = false) async throws(RecError) {
        guard let format = PixelFormat(name: pixelFormat), width > 0, height > 0, frameRate > 0 else {
            throw RecError(kind: .usage, message: "an AssetWriter needs a size, a frame rate above 0 and a pixel format FFmpeg knows "
                           + "(\(width)x\(height) \(pixelFormat) at \(frameRate) fps is not); use e.g. 1280x720 yuv420p at 30")
        }
        self.path = OutputFile.absolute(path)
        let source = PushedFrames(format: VideoFormat(width: width, height: height, pixelFormat: format), rate: frameRate)
        self.source = source
        var configuration = CaptureSession.Configuration(source: .testPattern, preset: preset)
        configuration.recordingPath = self.path
        configuration.overwrites = overwrite
        configuration.pace = .fastest
        session = try CaptureSession(configuration, source: source)
        try await session.start(waitingForFirstFrame: false)
    }

    /// Queues `frame` for the encoder; waits while the encoder is two frames behind.
    ///
    /// Frames are shown at their ``Frame/time``, which must increase from one to the next.
    /// A frame may be changed again after this call (it gets pictures of its own first).
    ///
    /// - Throws: a usage error for a frame of another size or pixel format than the writer's, or
    ///   an encoded frame; a runtime error once the writer has failed or finished.
    public func append(_ frame: Frame) throws(RecError) {
        guard case .picture(let picture) = frame.content else {
            throw RecError(kind: .usage, message: "an AssetWriter encodes pictures; this frame is already encoded (\(frame.pixelFormat))")
        }
        guard picture.format == source.format else {
            throw RecError(kind: .usage, message: "this writer takes \(source.format) frames, not \(picture.format); "
                           + "make the frame with the writer's size and pixel format")
        }
        guard let copy = try? picture.clone() else {
            throw RecError(kind: .runtime, message: "cannot queue the frame: out of memory")
        }
        copy.captureTime = Timestamp(frame.time)
        guard source.queue.push(copy) else {
            let failure = session.statistics.failure
            throw RecError(kind: .runtime, message: failure ?? "the writer has finished; make a new AssetWriter to write again")
        }
    }

    /// Encodes what is queued, finishes the file and returns its summary.
    ///
    /// - Throws: the encoder's or the file's error, if writing failed.
    @discardableResult
    public func finish() async throws(RecError) -> StopSummary {
        source.queue.close()
        let summary = await session.waitUntilFinished()
        if let failure = summary.failure { throw RecError(kind: .runtime, message: failure) }
        return summary
    }
}

/// The frames an `AssetWriter` is given, as the source its recorder reads: a short blocking
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
