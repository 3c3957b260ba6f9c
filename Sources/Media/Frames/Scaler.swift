import CFFmpeg
import RecCore

/// Converts pictures between pixel formats and sizes with libswscale. Owned by one thread.
public final class Scaler {
    private let context: OpaquePointer
    public let input: VideoFormat
    public let output: VideoFormat

    /// The corresponding C function is `sws_getContext` (bicubic when resizing, exact otherwise).
    public init(from input: VideoFormat, to output: VideoFormat) throws(FFmpegError) {
        let resize = input.width != output.width || input.height != output.height
        guard let ctx = sws_getContext(Int32(input.width), Int32(input.height), input.pixelFormat.av,
                                       Int32(output.width), Int32(output.height), output.pixelFormat.av,
                                       resize ? SWS_BICUBIC : SWS_POINT, nil, nil, nil) else {
            throw FFmpegError(code: cffmpeg_averror(EINVAL), operation: "sws_getContext(\(input) → \(output))")
        }
        self.context = ctx
        self.input = input
        self.output = output
    }

    deinit { sws_freeContext(context) }

    /// A new frame in the output format with the same times. The corresponding C function is
    /// `sws_scale_frame`.
    public func scale(_ frame: VideoFrame) throws(FFmpegError) -> VideoFrame {
        let out = try VideoFrame(format: output, captureTime: frame.captureTime, sequence: frame.sequence)
        try check(sws_scale_frame(context, out.pointer, frame.pointer), "sws_scale_frame")
        out.pointer.pointee.pts = frame.pointer.pointee.pts
        return out
    }
}
