import CFFmpeg
import RecCore

/// An immutable copy of a stream's `AVCodecParameters` (codec, size, pixel format, extradata):
/// what a muxer needs to create a stream and a decoder needs to open.
///
/// `@unchecked Sendable` because it never changes after `init`: every initialiser makes a private
/// copy (`avcodec_parameters_copy` / `avcodec_parameters_from_context`) and nothing writes it again.
package final class CodecParameters: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVCodecParameters>
    /// The time base the packets that go with these parameters are stamped in.
    package let timeBase: Rational

    package init(copying source: UnsafePointer<AVCodecParameters>, timeBase: Rational) throws(FFmpegError) {
        let p = try allocated(avcodec_parameters_alloc(), "avcodec_parameters_alloc")
        let result = avcodec_parameters_copy(p, source)
        if result < 0 {
            var q: UnsafeMutablePointer<AVCodecParameters>? = p
            avcodec_parameters_free(&q)
            throw FFmpegError(code: result, operation: "avcodec_parameters_copy")
        }
        self.pointer = p
        self.timeBase = timeBase
    }

    init(context: UnsafePointer<AVCodecContext>) throws(FFmpegError) {
        let p = try allocated(avcodec_parameters_alloc(), "avcodec_parameters_alloc")
        let result = avcodec_parameters_from_context(p, context)
        if result < 0 {
            var q: UnsafeMutablePointer<AVCodecParameters>? = p
            avcodec_parameters_free(&q)
            throw FFmpegError(code: result, operation: "avcodec_parameters_from_context")
        }
        self.pointer = p
        self.timeBase = Rational(context.pointee.time_base)
    }

    deinit {
        var p: UnsafeMutablePointer<AVCodecParameters>? = pointer
        avcodec_parameters_free(&p)
    }

    package var isVideo: Bool { pointer.pointee.codec_type == AVMEDIA_TYPE_VIDEO }
    package var width: Int { Int(pointer.pointee.width) }
    package var height: Int { Int(pointer.pointee.height) }
    /// FFmpeg's short name for the codec: "h264", "hevc", "vp9", "ffv1", "mjpeg"; for people and
    /// messages (decide on the codec with `codec` or `isH264`, which read its id).
    package var codecName: String { String(cString: avcodec_get_name(pointer.pointee.codec_id)) }
    /// An H.264 stream (`codec_id` is `AV_CODEC_ID_H264`).
    package var isH264: Bool { codec == .h264 }
    package var extradata: [UInt8] {
        guard let d = pointer.pointee.extradata, pointer.pointee.extradata_size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: d, count: Int(pointer.pointee.extradata_size)))
    }
    package var pixelFormat: PixelFormat { PixelFormat(rawValue: pointer.pointee.format) }
}

extension CodecParameters {
    /// The same parameters for packets stamped in `timeBase` (a camera timed by arrival).
    /// The corresponding C function is `avcodec_parameters_copy`.
    package func retimed(_ timeBase: Rational) throws(FFmpegError) -> CodecParameters {
        try CodecParameters(copying: pointer, timeBase: timeBase)
    }

    /// Parameters for a stream rec did not encode itself: a camera's MJPEG, stored as it comes.
    /// The corresponding C function is `avcodec_parameters_alloc`.
    package convenience init(codecName: String, width: Int, height: Int, pixelFormat: PixelFormat,
                            timeBase: Rational) throws(FFmpegError) {
        guard let descriptor = avcodec_descriptor_get_by_name(codecName) else {
            throw FFmpegError(code: cffmpeg_averror(EINVAL), operation: "avcodec_descriptor_get_by_name(\(codecName))")
        }
        let p = try allocated(avcodec_parameters_alloc(), "avcodec_parameters_alloc")
        defer {
            var q: UnsafeMutablePointer<AVCodecParameters>? = p
            avcodec_parameters_free(&q)
        }
        p.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        p.pointee.codec_id = descriptor.pointee.id
        p.pointee.width = Int32(width)
        p.pointee.height = Int32(height)
        p.pointee.format = pixelFormat.rawValue
        try self.init(copying: p, timeBase: timeBase)
    }
}
