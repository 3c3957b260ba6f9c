import CFFmpeg
import RecCore

/// The send and receive steps every decoder shares, on a codec context and packet its owner
/// (`VideoDecoder`, `AudioDecoder`) holds: EAGAIN and EOF are results, not errors.
enum DecoderSteps {
    /// Sends `packet` (nil drains); false on EAGAIN. With `sideData`, the packet's side data goes
    /// too (the samples a sound decoder skips). The corresponding C function is `avcodec_send_packet`.
    static func send(_ packet: EncodedPacket?, context: UnsafeMutablePointer<AVCodecContext>,
                     scratch: UnsafeMutablePointer<AVPacket>, timeBase: Rational, sideData: Bool,
                     operation: String) throws(FFmpegError) -> Bool {
        guard let packet else {
            let r = avcodec_send_packet(context, nil)
            if r == FFmpegError.eof { return true }
            try check(r, "\(operation)(flush)")
            return true
        }
        try packet.fill(scratch, rescaledTo: timeBase, streamIndex: 0)
        defer { av_packet_unref(scratch) }
        if sideData { try packet.attachSideData(to: scratch) }
        let r = avcodec_send_packet(context, scratch)
        if r == FFmpegError.again { return false }
        try check(r, operation)
        return true
    }

    /// The next decoded frame, owned by the caller, its `pts` set to the best-effort timestamp.
    /// The corresponding C function is `avcodec_receive_frame`.
    static func receive(_ context: UnsafeMutablePointer<AVCodecContext>,
                        operation: String) throws(FFmpegError) -> Received<UnsafeMutablePointer<AVFrame>> {
        let frame = try allocated(av_frame_alloc(), "av_frame_alloc")
        let r = avcodec_receive_frame(context, frame)
        if r < 0 {
            var f: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&f)
            if r == FFmpegError.again { return .needsInput }
            if r == FFmpegError.eof { return .endOfStream }
            try check(r, operation)
        }
        frame.pointee.pts = frame.pointee.best_effort_timestamp
        return .output(frame)
    }
}
