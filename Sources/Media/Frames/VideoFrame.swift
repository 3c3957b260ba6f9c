import CFFmpeg
import RecCore

/// One raw picture with its capture time: the unit a `FrameSource` delivers.
///
/// Owns exactly one `AVFrame` (and, through it, reference-counted picture buffers). A frame has one
/// owner at a time: the capture thread makes it, the bounded frame queue hands it over, and the
/// encode thread consumes it. It is `@unchecked Sendable` for that hand-over only; no two threads
/// touch one frame at once, and nothing mutates it after it is queued.
public final class VideoFrame: @unchecked Sendable {
    /// The owned frame. Borrow it for the length of a call; never keep it.
    public let pointer: UnsafeMutablePointer<AVFrame>
    /// When the frame was captured, on the session timeline (0 = the first frame), in microseconds.
    public var captureTime: Timestamp
    /// The source's sequence number for the frame (0, 1, 2, …; gaps are frames the source dropped).
    public var sequence: Int64

    /// A frame with freshly allocated, writable picture buffers.
    /// The corresponding C functions are `av_frame_alloc` and `av_frame_get_buffer`.
    public init(format: VideoFormat, captureTime: Timestamp = .zero, sequence: Int64 = 0) throws(FFmpegError) {
        let frame = try allocated(av_frame_alloc(), "av_frame_alloc")
        frame.pointee.width = Int32(format.width)
        frame.pointee.height = Int32(format.height)
        frame.pointee.format = format.pixelFormat.rawValue
        let result = av_frame_get_buffer(frame, 0)
        if result < 0 {
            var f: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&f)
            throw FFmpegError(code: result, operation: "av_frame_get_buffer")
        }
        self.pointer = frame
        self.captureTime = captureTime
        self.sequence = sequence
    }

    /// Takes ownership of a frame FFmpeg gave us (from a decoder or filter graph).
    public init(taking frame: UnsafeMutablePointer<AVFrame>, captureTime: Timestamp, sequence: Int64) {
        self.pointer = frame
        self.captureTime = captureTime
        self.sequence = sequence
    }

    deinit {
        var f: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&f)
    }

    public var format: VideoFormat {
        VideoFormat(width: Int(pointer.pointee.width), height: Int(pointer.pointee.height),
                    pixelFormat: PixelFormat(rawValue: pointer.pointee.format))
    }

    /// Plane `i`'s base address and bytes per row.
    public func plane(_ i: Int) -> (base: UnsafeMutablePointer<UInt8>, bytesPerRow: Int)? {
        let data = withUnsafeBytes(of: pointer.pointee.data) { $0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)[i] }
        let linesize = withUnsafeBytes(of: pointer.pointee.linesize) { $0.bindMemory(to: Int32.self)[i] }
        guard let data else { return nil }
        return (data, Int(linesize))
    }

    /// A second frame over the same reference-counted pictures (no pixels are copied), with its
    /// own fields: what a second reader gets, so neither writes through the other's frame.
    /// The corresponding C function is `av_frame_clone`.
    public func clone() throws(FFmpegError) -> VideoFrame {
        let copy = try allocated(av_frame_clone(pointer), "av_frame_clone")
        return VideoFrame(taking: copy, captureTime: captureTime, sequence: sequence)
    }
}
