import CFFmpeg
import RecCore

/// A libavcodec audio decoder: packets in (a file's AAC or Opus, a device's PCM), `AudioFrame`s
/// out. Owns its codec context and one reusable packet; one thread at a time.
///
/// Frames come out with `pts` (best effort) in `timeBase`; their `time` is that pts in
/// microseconds, which a source replaces with the session time it works out itself. Leading
/// samples a container marks as priming (AAC's encoder delay, an MP4 edit list) are trimmed by
/// libavcodec, which moves the frame's pts on by as much.
public final class AudioDecoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    private let packet: UnsafeMutablePointer<AVPacket>
    /// The time base of the packets sent and of the frames' `pts`.
    public let timeBase: Rational

    /// A decoder for a demuxed audio stream. A stream whose channel order is unknown (a device's
    /// raw PCM says only how many channels it has) gets FFmpeg's default layout for that count.
    /// The corresponding C functions are `avcodec_find_decoder`, `avcodec_parameters_to_context`,
    /// `av_channel_layout_default` and `avcodec_open2`.
    public init(parameters: CodecParameters) throws(FFmpegError) {
        guard let codec = avcodec_find_decoder(parameters.pointer.pointee.codec_id) else {
            throw FFmpegError(code: cffmpeg_averror(EINVAL), operation: "avcodec_find_decoder(\(parameters.codecName))")
        }
        var ctx: UnsafeMutablePointer<AVCodecContext>? = try allocated(avcodec_alloc_context3(codec), "avcodec_alloc_context3")
        var pkt: UnsafeMutablePointer<AVPacket>? = nil
        do throws(FFmpegError) {
            try check(avcodec_parameters_to_context(ctx, parameters.pointer), "avcodec_parameters_to_context")
            let layout = ctx!.pointee.ch_layout
            if layout.order == AV_CHANNEL_ORDER_UNSPEC && layout.nb_channels > 0 {
                av_channel_layout_uninit(&ctx!.pointee.ch_layout)
                av_channel_layout_default(&ctx!.pointee.ch_layout, layout.nb_channels)
            }
            ctx!.pointee.pkt_timebase = parameters.timeBase.av
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

    /// A decoder for a stream of a format context another type owns (a libavdevice input): its
    /// parameters are copied, the pointer is only borrowed for the call.
    /// The corresponding C function is `avcodec_parameters_copy`.
    public convenience init(copying parameters: UnsafePointer<AVCodecParameters>, timeBase: Rational) throws(FFmpegError) {
        try self.init(parameters: CodecParameters(copying: parameters, timeBase: timeBase))
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&p)
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&c)
    }

    /// What the frames hold: the decoder's sample format, rate and channel count (known once it
    /// is open; a few codecs settle them on the first frame, which then says so itself).
    public var format: AudioFormat {
        AudioFormat(sampleFormat: context.pointee.sample_fmt.rawValue, sampleRate: Int(context.pointee.sample_rate),
                    channels: Int(context.pointee.ch_layout.nb_channels))
    }

    /// Sends one packet (times in `timeBase`, side data and all), or nil to drain. Returns false if
    /// the decoder must give frames before it takes this packet (`EAGAIN`); send it again after
    /// receiving. The corresponding C functions are `av_packet_new_side_data` and `avcodec_send_packet`.
    @discardableResult
    public func send(_ packet: EncodedPacket?) throws(FFmpegError) -> Bool {
        // Side data carries the samples to skip: a codec's priming, an edit list's cut, the padding at the end.
        try DecoderSteps.send(packet, context: context, scratch: self.packet, timeBase: timeBase, sideData: true,
                              operation: "avcodec_send_packet(audio)")
    }

    /// The next decoded frame, its `pts` set to the best-effort timestamp in `timeBase` and its
    /// `time` to that pts in microseconds (zero if unknown).
    /// The corresponding C function is `avcodec_receive_frame`.
    public func receive() throws(FFmpegError) -> Received<AudioFrame> {
        switch try DecoderSteps.receive(context, operation: "avcodec_receive_frame(audio)") {
        case .needsInput: return .needsInput
        case .endOfStream: return .endOfStream
        case .output(let frame):
            let pts = frame.pointee.pts
            let time = pts == CFFMPEG_NOPTS ? Timestamp.zero : Timestamp(value: pts, timeBase: timeBase).rescaled(to: .microseconds)
            return .output(AudioFrame(taking: frame, time: time))
        }
    }
}
