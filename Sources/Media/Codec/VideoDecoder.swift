import CFFmpeg
import RecCore

/// A libavcodec video decoder. Owned by one thread.
///
/// Frames come out with `pts` (best effort) in the stream's time base. Frames whose packets the
/// demuxer flagged as discarded (hidden by an MP4 edit list) are dropped by libavcodec itself.
public final class VideoDecoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    private let packet: UnsafeMutablePointer<AVPacket>
    /// The time base of the packets sent and of the frames' `pts`.
    public let timeBase: Rational

    /// The corresponding C functions are `avcodec_find_decoder`, `avcodec_parameters_to_context`
    /// and `avcodec_open2`.
    public init(parameters: CodecParameters, threads: Int = 0) throws(FFmpegError) {
        guard let codec = avcodec_find_decoder(parameters.pointer.pointee.codec_id) else {
            throw FFmpegError(code: cffmpeg_averror(EINVAL), operation: "avcodec_find_decoder(\(parameters.codecName))")
        }
        var ctx: UnsafeMutablePointer<AVCodecContext>? = try allocated(avcodec_alloc_context3(codec), "avcodec_alloc_context3")
        var pkt: UnsafeMutablePointer<AVPacket>? = nil
        do throws(FFmpegError) {
            try check(avcodec_parameters_to_context(ctx, parameters.pointer), "avcodec_parameters_to_context")
            ctx!.pointee.pkt_timebase = parameters.timeBase.av
            ctx!.pointee.thread_count = Int32(threads)
            try check(avcodec_open2(ctx, codec, nil), "avcodec_open2(\(parameters.codecName) decoder)")
            pkt = try allocated(av_packet_alloc(), "av_packet_alloc")
        } catch {
            av_packet_free(&pkt)
            avcodec_free_context(&ctx)
            throw error
        }
        self.context = ctx!
        self.packet = pkt!
        self.timeBase = parameters.timeBase
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&p)
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&c)
    }

    /// Sends one packet (times in `timeBase`), or nil to drain. A hidden packet is decoded for
    /// reference and its frame dropped. Returns false if the decoder must
    /// give frames before it takes this packet (`EAGAIN`); send it again after receiving.
    /// The corresponding C function is `avcodec_send_packet`.
    @discardableResult
    public func send(_ packet: EncodedPacket?) throws(FFmpegError) -> Bool {
        try DecoderSteps.send(packet, context: context, scratch: self.packet, timeBase: timeBase, sideData: false,
                              operation: "avcodec_send_packet")
    }

    /// The next decoded frame; its `pts` is the best-effort timestamp in `timeBase`, and its capture
    /// time that pts in microseconds. The corresponding C function is `avcodec_receive_frame`.
    public func receive() throws(FFmpegError) -> Received<VideoFrame> {
        switch try DecoderSteps.receive(context, operation: "avcodec_receive_frame") {
        case .needsInput: return .needsInput
        case .endOfStream: return .endOfStream
        case .output(let frame):
            let us = Timestamp(value: frame.pointee.pts, timeBase: timeBase).rescaled(to: .microseconds)
            return .output(VideoFrame(taking: frame, captureTime: us, sequence: 0))
        }
    }
}
