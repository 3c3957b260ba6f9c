import CFFmpeg
import RecCore

/// Converts pictures between pixel formats and sizes with libswscale. Owned by one thread.
///
/// Always a real filter, never point sampling: 4:2:2 → 4:2:0 (an MJPEG webcam into x264) must
/// average each pair of chroma rows, not keep one and drop the other. Bicubic; from RGB (a
/// screen's bgr0) the chroma is computed for every pixel and filtered down, as `flags(from:)`
/// says; bench/README.md ("screen.sh") has the cost.
package final class Scaler {
    private let context: OpaquePointer
    package let input: VideoFormat
    package let output: VideoFormat
    /// The colour the converter reads and writes, when the caller said (see `init`).
    package let colour: (from: ColourDescription, to: ColourDescription)?
    /// The output pictures, reused once the encoder (or whoever took one) has let go: a new
    /// megabyte-sized frame for every picture is a fresh mmap whose pages fault in as libswscale
    /// writes them (a 1080p screen recording spent 2.7 times ffmpeg's libswscale time, and 4
    /// times its kernel time, on fresh frames).
    private let pool: FramePool

    /// libswscale's flags for pictures in `input`: bicubic always. From YUV, accurate rounding.
    /// From RGB, full-resolution chroma input (`SWS_FULL_CHR_H_INP`) and libswscale's own
    /// rounding, as ffmpeg's `scale` filter rounds: without it libswscale takes each pair of
    /// pixels' chroma in plain C (its `*ToUV_half` input functions), which cost a 1080p screen
    /// 72 million instructions a picture (callgrind); with it, its SIMD input functions and the
    /// bicubic filter do the same 2:1 step for 37 million (ffmpeg's scale filter: 67 million).
    package static func flags(from input: PixelFormat) -> Int32 {
        input.isRGB ? SWS_BICUBIC | SWS_FULL_CHR_H_INP : SWS_BICUBIC | SWS_ACCURATE_RND
    }

    /// - Parameter colour: the input frames' range and matrix and the ones to convert to. Without
    ///   it libswscale assumes limited-range BT.601, except for `yuvj*` formats (full range).
    /// The corresponding C functions are `sws_getContext` and `sws_setColorspaceDetails`.
    package init(from input: VideoFormat, to output: VideoFormat,
                colour: (from: ColourDescription, to: ColourDescription)? = nil) throws(FFmpegError) {
        guard let ctx = sws_getContext(Int32(input.width), Int32(input.height), input.pixelFormat.av,
                                       Int32(output.width), Int32(output.height), output.pixelFormat.av,
                                       Self.flags(from: input.pixelFormat), nil, nil, nil) else {
            throw FFmpegError(code: cffmpeg_averror(EINVAL), operation: "sws_getContext(\(input) → \(output))")
        }
        if let colour {
            // Between YUV formats libswscale converts only the range; the same table on both sides
            // keeps it from converting the matrix (through RGB) as well.
            let fromTable = sws_getCoefficients(Self.swsMatrix(colour.from.matrix))
            let toTable = input.pixelFormat.isRGB || output.pixelFormat.isRGB ? sws_getCoefficients(Self.swsMatrix(colour.to.matrix)) : fromTable
            // Returns -1 between YUV formats ("no matrix conversion"), having set the ranges.
            _ = sws_setColorspaceDetails(ctx, fromTable, colour.from.isFullRange ? 1 : 0, toTable,
                                         colour.to.isFullRange ? 1 : 0, 0, 1 << 16, 1 << 16)
        }
        self.context = ctx
        self.input = input
        self.output = output
        self.colour = colour
        self.pool = FramePool(format: output)
    }

    deinit { sws_freeContext(context) }

    /// `AVColorSpace` → libswscale's `SWS_CS_*` (the same numbers where both have one); unknown
    /// and RGB are BT.601, libswscale's default.
    static func swsMatrix(_ matrix: Int32) -> Int32 {
        matrix == ColourDescription.unspecifiedMatrix || matrix == ColourDescription.rgbMatrix ? SWS_CS_DEFAULT : matrix
    }

    /// A frame in the output format (from the pool: one nobody holds any more, or a new one) with
    /// the same times and properties, and the output colour when one was given. The
    /// corresponding C functions are `sws_scale_frame` and `av_frame_copy_props`.
    package func scale(_ frame: VideoFrame) throws(FFmpegError) -> VideoFrame {
        let out = try pool.next()
        out.captureTime = frame.captureTime
        out.sequence = frame.sequence
        try check(sws_scale_frame(context, out.pointer, frame.pointer), "sws_scale_frame")
        // A reused frame keeps the side data of the picture before: av_frame_copy_props adds, it
        // does not replace.
        while out.pointer.pointee.nb_side_data > 0, let first = out.pointer.pointee.side_data[0] {
            av_frame_remove_side_data(out.pointer, first.pointee.type)
        }
        try check(av_frame_copy_props(out.pointer, frame.pointer), "av_frame_copy_props")
        if let to = colour?.to {
            var c = out.colour
            c.range = to.range
            c.matrix = to.matrix
            c.chromaLocation = to.chromaLocation
            out.colour = c
        }
        return out
    }
}
