import CFFmpeg
import RecCore

/// One raw picture with its capture time: the unit a `FrameSource` delivers.
///
/// Owns exactly one `AVFrame` (and, through it, reference-counted picture buffers). A frame has one
/// owner at a time: the capture thread makes it, the bounded frame queue hands it over, and the
/// encode thread consumes it. It is `@unchecked Sendable` for that hand-over only; no two threads
/// touch one frame at once, and nothing writes to it after it is queued: the encode path reads it
/// and gives the encoder and filter graph their own references (`av_frame_ref`) to stamp, and a
/// relabelled copy (`plainJPEGFormat()`) when its format needs one.
package final class VideoFrame: @unchecked Sendable {
    private let frame: FrameOwner
    /// The owned frame, within the package only. Borrow it for the length of a call; never keep it.
    package var pointer: UnsafeMutablePointer<AVFrame> { frame.pointer }
    /// When the frame was captured, on the session timeline (0 = the first frame), in microseconds.
    package var captureTime: Timestamp
    /// The source's sequence number for the frame (0, 1, 2, …; gaps are frames the source dropped).
    package var sequence: Int64

    /// A frame with freshly allocated, writable picture buffers.
    /// The corresponding C functions are `av_frame_alloc` and `av_frame_get_buffer`.
    package init(format: VideoFormat, captureTime: Timestamp = .zero, sequence: Int64 = 0) throws(FFmpegError) {
        let frame = try FrameOwner()
        let f = frame.pointer
        f.pointee.width = Int32(format.width)
        f.pointee.height = Int32(format.height)
        f.pointee.format = format.pixelFormat.rawValue
        try check(av_frame_get_buffer(f, 0), "av_frame_get_buffer")
        self.frame = frame
        self.captureTime = captureTime
        self.sequence = sequence
    }

    /// Takes over a frame FFmpeg gave us (from a decoder or filter graph).
    package init(owning frame: consuming FrameOwner, captureTime: Timestamp, sequence: Int64) {
        self.frame = frame
        self.captureTime = captureTime
        self.sequence = sequence
    }

    /// Takes ownership of a frame FFmpeg gave us (from a decoder or filter graph).
    package convenience init(taking frame: UnsafeMutablePointer<AVFrame>, captureTime: Timestamp, sequence: Int64) {
        self.init(owning: FrameOwner(taking: frame), captureTime: captureTime, sequence: sequence)
    }

    package var format: VideoFormat {
        VideoFormat(width: Int(pointer.pointee.width), height: Int(pointer.pointee.height),
                    pixelFormat: PixelFormat(rawValue: pointer.pointee.format))
    }

    /// Plane `i`'s base address and bytes per row.
    package func plane(_ i: Int) -> (base: UnsafeMutablePointer<UInt8>, bytesPerRow: Int)? {
        let data = withUnsafeBytes(of: pointer.pointee.data) { $0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)[i] }
        let linesize = withUnsafeBytes(of: pointer.pointee.linesize) { $0.bindMemory(to: Int32.self)[i] }
        guard let data else { return nil }
        return (data, Int(linesize))
    }

    /// Gives the frame pictures of its own before it is written to: copies them if another
    /// frame (a clone an encoder holds) still shares them. The corresponding C function is
    /// `av_frame_make_writable`.
    package func makeWritable() throws(FFmpegError) {
        try check(av_frame_make_writable(pointer), "av_frame_make_writable")
    }

    /// How many planes the frame's pixel format has (1 for packed formats, 3 for yuv420p).
    /// The corresponding C function is `av_pix_fmt_count_planes`.
    package var planeCount: Int { max(0, Int(av_pix_fmt_count_planes(AVPixelFormat(rawValue: pointer.pointee.format)))) }

    /// The bytes of picture in each row of plane `i`, without the padding `bytesPerRow` may add.
    /// The corresponding C function is `av_image_get_linesize`.
    package func planeRowBytes(_ i: Int) -> Int {
        max(0, Int(av_image_get_linesize(AVPixelFormat(rawValue: pointer.pointee.format), pointer.pointee.width, Int32(i))))
    }

    /// The number of rows plane `i` has: the picture's height, or less for subsampled chroma.
    package func planeRows(_ i: Int) -> Int {
        let height = Int(pointer.pointee.height)
        guard i > 0, let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: pointer.pointee.format)) else { return height }
        // Planes 1 and 2 are chroma; a fourth is alpha, full height.
        guard i < 3 else { return height }
        let shift = Int(descriptor.pointee.log2_chroma_h)
        return (height + (1 << shift) - 1) >> shift
    }

    /// A second frame over the same reference-counted pictures (no pixels are copied), with its
    /// own fields: what a second reader gets, so neither writes through the other's frame.
    /// The corresponding C function is `av_frame_clone`.
    package func clone() throws(FFmpegError) -> VideoFrame {
        let copy = try allocated(av_frame_clone(pointer), "av_frame_clone")
        return VideoFrame(taking: copy, captureTime: captureTime, sequence: sequence)
    }
}
