import CFFmpeg
import RecCore

/// A libavcodec video decoder. Owned by one thread.
///
/// Frames come out with `pts` (best effort) in the stream's time base. Frames whose packets the
/// demuxer flagged as discarded (hidden by an MP4 edit list) are dropped by libavcodec itself.
package final class VideoDecoder {
    private let context: CodecContext
    private let packet: PacketOwner
    /// The time base of the packets sent and of the frames' `pts`.
    package let timeBase: Rational

    /// The corresponding C functions are `avcodec_find_decoder`, `avcodec_parameters_to_context`
    /// and `avcodec_open2`.
    /// `options` are libavcodec's decoder options (`skip_loop_filter`, `skip_frame`).
    package init(parameters: CodecParameters, threads: Int = 0, options: [(key: String, value: String)] = []) throws(FFmpegError) {
        context = try CodecContext(decoding: parameters)
        context.pointer.pointee.thread_count = Int32(threads)
        try context.open(options: options, name: "\(parameters.codecName) decoder")
        packet = try PacketOwner()
        timeBase = parameters.timeBase
    }

    /// Sends one packet (times in `timeBase`), or nil to drain. A hidden packet is decoded for
    /// reference and its frame dropped. Returns false if the decoder must
    /// give frames before it takes this packet (`EAGAIN`); send it again after receiving.
    /// The corresponding C function is `avcodec_send_packet`.
    @discardableResult
    package func send(_ packet: EncodedPacket?) throws(FFmpegError) -> Bool {
        try DecoderSteps.send(packet, context: context.pointer, scratch: self.packet.pointer, timeBase: timeBase, sideData: false,
                              operation: "avcodec_send_packet")
    }

    /// The next decoded frame; its `pts` is the best-effort timestamp in `timeBase`, and its capture
    /// time that pts in microseconds. The corresponding C function is `avcodec_receive_frame`.
    package func receive() throws(FFmpegError) -> Received<VideoFrame> {
        let timeBase = self.timeBase
        return try DecoderSteps.receive(context.pointer, operation: "avcodec_receive_frame") { frame in
            let us = Timestamp(value: frame.pointer.pointee.pts, timeBase: timeBase).rescaled(to: .microseconds)
            return VideoFrame(owning: frame, captureTime: us, sequence: 0)
        }
    }
}
