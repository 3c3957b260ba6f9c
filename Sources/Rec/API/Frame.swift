import Media
import RecCore

/// One picture from a source, with the time it was captured.
///
/// A session delivers frames to ``CaptureSession/onFrame(_:)`` on its capture thread and through
/// ``CaptureSession/frames(keepingNewest:)``. Which ``PixelFormat`` each source gives is said there. A frame shares its pixels with the recording by reference (no
/// copy is made to hand it to you), so it is read-only; keep it no longer than you need it, since
/// a camera reuses a small set of buffers.
///
/// A session that stores the source's own compressed frames (a network camera's H.264 with the
/// `camera-copy` preset, or a USB camera's MJPEG with the same preset) delivers them encoded: ``isEncoded``
/// is true, ``withEncodedBytes(_:)`` gives the bytes and there are no planes.
///
/// To make pictures of your own for an ``AssetWriter``, use ``init(width:height:pixelFormat:time:)``
/// and fill its planes with ``withMutablePlane(_:_:)``.
public struct Frame: Sendable {
    enum Content: Sendable {
        case picture(VideoFrame)
        /// A compressed frame, with its stream's parameters (nil if the source gave none).
        case packet(EncodedPacket, parameters: CodecParameters?)
    }

    let content: Content

    /// When the frame was captured, on the session's clock: the first frame is at zero. A whole
    /// number of microseconds, the same value every report uses for this frame (a saved
    /// range starting here has this `lowerBound`).
    public let time: Duration
    /// The frame's place in the session: 0, 1, 2, … in capture order.
    public let number: Int

    init(picture: VideoFrame, number: Int) {
        content = .picture(picture)
        time = picture.captureTime.duration
        self.number = number
    }

    init(packet: EncodedPacket, time: Timestamp, number: Int, parameters: CodecParameters?) {
        content = .packet(packet, parameters: parameters)
        self.time = time.duration
        self.number = number
    }

    /// A blank picture to draw into and hand to an ``AssetWriter``.
    ///
    /// - Parameters:
    ///   - width: the picture's width in pixels, 1 to 16384.
    ///   - height: the picture's height in pixels, 1 to 16384.
    ///   - pixelFormat: how the pixels are laid out, ``PixelFormat/yuv420p`` by default.
    ///   - time: when the picture is shown, from the start of the file (whole microseconds).
    /// - Throws: ``RecError/Kind/invalidRequest`` for a size outside 1 to 16384.
    public init(width: Int, height: Int, pixelFormat: PixelFormat = .yuv420p, time: Duration) throws(RecError) {
        guard width > 0, height > 0, width <= 16384, height <= 16384 else {
            throw RecError(kind: .invalidRequest, message: "a frame of \(width)x\(height) is not a picture size; give a width and height from 1 to 16384")
        }
        let format = pixelFormat.media
        let stamp = Timestamp(time)
        do {
            let picture = try VideoFrame(format: VideoFormat(width: width, height: height, pixelFormat: format), captureTime: stamp)
            self.init(picture: picture, number: 0)
        } catch {
            throw RecError(kind: .failed, message: "cannot make a \(width)x\(height) \(pixelFormat) frame", cause: error.description)
        }
    }

    /// The picture's width in pixels.
    public var width: Int {
        switch content {
        case .picture(let p): p.format.width
        case .packet(_, let parameters): parameters?.width ?? 0
        }
    }

    /// The picture's height in pixels.
    public var height: Int {
        switch content {
        case .picture(let p): p.format.height
        case .packet(_, let parameters): parameters?.height ?? 0
        }
    }

    /// How the pixels are laid out; nil for an encoded frame (see ``codec``) or a format
    /// ``PixelFormat`` does not name (``pixelFormatName`` has FFmpeg's name for it).
    public var pixelFormat: PixelFormat? { PixelFormat(name: pixelFormatName) }

    /// FFmpeg's name of the pixel format (`yuv420p`, `yuyv422`, …), or of the codec for an
    /// encoded frame (`h264`, `hevc`, `mjpeg`).
    public var pixelFormatName: String {
        switch content {
        case .picture(let p): p.format.pixelFormat.name
        case .packet(_, let parameters): parameters?.codecName ?? "unknown"
        }
    }

    /// An encoded frame's codec; nil for a picture, or a codec ``Codec`` does not name.
    public var codec: Codec? {
        if case .packet(_, let parameters) = content, let name = parameters?.codecName { Codec(name: name) } else { nil }
    }

    /// The frame number the stand-in camera drew into this picture, read back from its pixels,
    /// so it survives encoding and decoding: a band of 34 cells across the top (see
    /// <doc:TimeAndTimestamps>). Nil for a picture without a valid band, an encoded frame, or a
    /// format whose first plane is not 8-bit luma.
    public var standInNumber: Int? {
        let lumaFirst: Set<PixelFormat> = [.yuv420p, .yuvj420p, .yuv422p, .yuvj422p, .yuv444p, .yuvj444p, .nv12, .nv21, .gray]
        guard let format = pixelFormat, lumaFirst.contains(format) else { return nil }
        let (width, height) = (self.width, self.height)
        return withPlane(0) { bytes, bytesPerRow -> Int? in
            guard let base = bytes.baseAddress else { return nil }
            return FrameStamp.read(luma: base.assumingMemoryBound(to: UInt8.self), bytesPerRow: bytesPerRow, width: width, height: height)
        } ?? nil
    }

    /// Whether the frame holds the source's compressed bytes instead of pixels.
    public var isEncoded: Bool {
        if case .packet = content { true } else { false }
    }

    /// Whether an encoded frame starts a group of pictures (a picture decodes from it alone);
    /// always true for a picture.
    public var isKeyframe: Bool {
        switch content {
        case .picture: true
        case .packet(let p, _): p.isKeyframe
        }
    }

    /// The number of planes: 1 for packed formats (`yuyv422`, `rgb24`), 3 for `yuv420p`, 0 when encoded.
    public var planeCount: Int {
        if case .picture(let p) = content { p.planeCount } else { 0 }
    }

    /// The size of plane `index`: the bytes of picture in each of its rows (without padding)
    /// and its number of rows; chroma planes of `yuv420p` are half as wide and half as high.
    /// Nil when there is no such plane.
    public func planeSize(_ index: Int) -> (bytesPerRow: Int, rows: Int)? {
        guard case .picture(let p) = content, index >= 0, index < p.planeCount else { return nil }
        return (p.planeRowBytes(index), p.planeRows(index))
    }

    /// Reads plane `index`: its bytes, row after row, and how many bytes each row takes in
    /// memory (at least the row's pixels, often more: see ``planeSize(_:)``). Returns nil when
    /// there is no such plane.
    public func withPlane<R, E: Error>(_ index: Int, _ body: (_ bytes: UnsafeRawBufferPointer, _ bytesPerRow: Int) throws(E) -> R) throws(E) -> R? {
        guard case .picture(let p) = content, index >= 0, index < p.planeCount, let plane = p.plane(index) else { return nil }
        let buffer = UnsafeRawBufferPointer(start: plane.base, count: plane.bytesPerRow * p.planeRows(index))
        return try body(buffer, plane.bytesPerRow)
    }

    /// Writes plane `index` of a frame you made with ``init(width:height:pixelFormat:time:)``.
    /// Returns nil when there is no such plane.
    ///
    /// Only for your own frames: a session's frames share their pixels with the recording. A
    /// frame already appended to an ``AssetWriter`` may be written again: it gets pictures of its
    /// own first, and what was appended stays as it was.
    public func withMutablePlane<R, E: Error>(_ index: Int, _ body: (_ bytes: UnsafeMutableRawBufferPointer, _ bytesPerRow: Int) throws(E) -> R) throws(E) -> R? {
        guard case .picture(let p) = content, index >= 0, index < p.planeCount else { return nil }
        // An appended frame's pictures may still be in the encoder: write to a copy of them.
        guard (try? p.makeWritable()) != nil, let plane = p.plane(index) else { return nil }
        let buffer = UnsafeMutableRawBufferPointer(start: plane.base, count: plane.bytesPerRow * p.planeRows(index))
        return try body(buffer, plane.bytesPerRow)
    }

    /// Reads an encoded frame's bytes; nil for a picture.
    public func withEncodedBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R? {
        guard case .packet(let packet, _) = content else { return nil }
        if let shared = packet.shared {
            return try withoutActuallyEscaping(body) { (body) throws(E) -> R in
                var result: Result<R, E>!
                shared.withUnsafeBytes { bytes in result = Result { () throws(E) -> R in try body(bytes) } }
                return try result.get()
            }
        }
        var result: Result<R, E>!
        packet.data.withUnsafeBytes { bytes in result = Result { () throws(E) -> R in try body(bytes) } }
        return try result.get()
    }
}

extension Timestamp {
    /// The time as a Swift `Duration`.
    var duration: Duration { .microseconds(rescaled(to: .microseconds).value) }

    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .microseconds(seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    }
}
