import CFFmpeg
import RecCore

/// Decodes the Motion-JPEG frames USB webcams send into raw frames, one JPEG in, one frame out.
///
/// A `final class` owned by one thread (the capture thread): it owns an `AVCodecContext` and a
/// reusable `AVPacket`. Single-threaded decoding, so each JPEG's picture comes out immediately.
public final class MJPEGDecoder {
    private let context: UnsafeMutablePointer<AVCodecContext>
    private let packet: UnsafeMutablePointer<AVPacket>

    /// Opens the mjpeg decoder; the corresponding C functions are `avcodec_find_decoder`,
    /// `avcodec_alloc_context3` and `avcodec_open2`.
    public init() throws(FFmpegError) {
        let codec = try allocated(avcodec_find_decoder(AV_CODEC_ID_MJPEG), "avcodec_find_decoder(mjpeg)")
        var context: UnsafeMutablePointer<AVCodecContext>? = try allocated(avcodec_alloc_context3(codec), "avcodec_alloc_context3")
        context!.pointee.thread_count = 1
        let opened = avcodec_open2(context, codec, nil)
        guard opened >= 0, let packet = av_packet_alloc() else {
            avcodec_free_context(&context)
            throw FFmpegError(code: opened < 0 ? opened : cffmpeg_averror(ENOMEM), operation: "avcodec_open2(mjpeg)")
        }
        self.context = context!
        self.packet = packet
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&p)
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&c)
    }

    /// Decodes one JPEG (copied once into a padded packet) into a new frame, usually `yuvj422p`
    /// for webcams. The corresponding C functions are `avcodec_send_packet` and
    /// `avcodec_receive_frame`.
    public func decode(_ jpeg: UnsafeRawBufferPointer, captureTime: Timestamp, sequence: Int64) throws(FFmpegError) -> VideoFrame {
        try check(av_new_packet(packet, Int32(jpeg.count)), "av_new_packet")
        defer { av_packet_unref(packet) }
        if let base = jpeg.baseAddress { packet.pointee.data.update(from: base.assumingMemoryBound(to: UInt8.self), count: jpeg.count) }
        try check(avcodec_send_packet(context, packet), "avcodec_send_packet(mjpeg)")
        let frame = try allocated(av_frame_alloc(), "av_frame_alloc")
        let received = avcodec_receive_frame(context, frame)
        guard received >= 0 else {
            var f: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&f)
            throw FFmpegError(code: received, operation: "avcodec_receive_frame(mjpeg)")
        }
        return VideoFrame(taking: frame, captureTime: captureTime, sequence: sequence)
    }
}
