import CFFmpeg
import RecCore

/// Decodes the Motion-JPEG frames USB webcams send into raw frames, one JPEG in, one frame out.
///
/// A `final class` owned by one thread (the capture thread): it owns an `AVCodecContext` and a
/// reusable `AVPacket`. Single-threaded decoding, so each JPEG's picture comes out immediately.
package final class MJPEGDecoder {
    private let context: CodecContext
    private let packet: PacketOwner

    /// Opens the mjpeg decoder; the corresponding C functions are `avcodec_find_decoder`,
    /// `avcodec_alloc_context3` and `avcodec_open2`.
    package init() throws(FFmpegError) {
        context = try CodecContext(try allocated(avcodec_find_decoder(AV_CODEC_ID_MJPEG), "avcodec_find_decoder(mjpeg)"))
        context.pointer.pointee.thread_count = 1
        try context.open(name: "mjpeg")
        packet = try PacketOwner()
    }

    /// Decodes one JPEG (copied once into a padded packet) into a new frame, usually `yuvj422p`
    /// for webcams. The corresponding C functions are `avcodec_send_packet` and
    /// `avcodec_receive_frame`.
    package func decode(_ jpeg: UnsafeRawBufferPointer, captureTime: Timestamp, sequence: Int64) throws(FFmpegError) -> VideoFrame {
        let p = packet.pointer
        try check(av_new_packet(p, Int32(jpeg.count)), "av_new_packet")
        defer { av_packet_unref(p) }
        if let base = jpeg.baseAddress, let data = p.pointee.data {
            data.update(from: base.assumingMemoryBound(to: UInt8.self), count: jpeg.count)
        }
        try check(avcodec_send_packet(context.pointer, p), "avcodec_send_packet(mjpeg)")
        let frame = try FrameOwner()
        try check(avcodec_receive_frame(context.pointer, frame.pointer), "avcodec_receive_frame(mjpeg)")
        return VideoFrame(owning: frame, captureTime: captureTime, sequence: sequence)
    }
}
