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

    /// The next decoded frame, its `pts` set to the best-effort timestamp, handed to `make` (which
    /// wraps it in the frame type its decoder gives). The corresponding C function is
    /// `avcodec_receive_frame`.
    static func receive<T>(_ context: UnsafeMutablePointer<AVCodecContext>, operation: String,
                           make: (consuming FrameOwner) -> T) throws(FFmpegError) -> Received<T> {
        let frame = try FrameOwner()
        let r = avcodec_receive_frame(context, frame.pointer)
        if r == FFmpegError.again { return .needsInput }
        if r == FFmpegError.eof { return .endOfStream }
        try check(r, operation)
        frame.pointer.pointee.pts = frame.pointer.pointee.best_effort_timestamp
        return .output(make(frame))
    }
}
