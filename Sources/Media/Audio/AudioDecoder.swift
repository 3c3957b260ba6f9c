import CFFmpeg
import RecCore

/// A libavcodec audio decoder: packets in (a file's AAC or Opus, a device's PCM), `AudioFrame`s
/// out. Owns its codec context and one reusable packet; one thread at a time.
///
/// Frames come out with `pts` (best effort) in `timeBase`; their `time` is that pts in
/// microseconds, which a source replaces with the session time it works out itself. Leading
/// samples a container marks as priming (AAC's encoder delay, an MP4 edit list) are trimmed by
/// libavcodec, which moves the frame's pts on by as much.
package final class AudioDecoder {
    private let context: CodecContext
    private let packet: PacketOwner
    /// The time base of the packets sent and of the frames' `pts`.
    package let timeBase: Rational

    /// A decoder for a demuxed audio stream. A stream whose channel order is unknown (a device's
    /// raw PCM says only how many channels it has) gets FFmpeg's default layout for that count.
    /// The corresponding C functions are `avcodec_find_decoder`, `avcodec_parameters_to_context`,
    /// `av_channel_layout_default` and `avcodec_open2`.
    package init(parameters: CodecParameters) throws(FFmpegError) {
        context = try CodecContext(decoding: parameters)
        let c = context.pointer
        let layout = c.pointee.ch_layout
        if layout.order == AV_CHANNEL_ORDER_UNSPEC && layout.nb_channels > 0 {
            av_channel_layout_uninit(&c.pointee.ch_layout)
            av_channel_layout_default(&c.pointee.ch_layout, layout.nb_channels)
        }
        try context.open(name: "\(parameters.codecName) decoder")
        packet = try PacketOwner()
        timeBase = parameters.timeBase
    }

    /// A decoder for a stream of a format context another type owns (a libavdevice input): its
    /// parameters are copied, the pointer is only borrowed for the call.
    /// The corresponding C function is `avcodec_parameters_copy`.
    package convenience init(copying parameters: UnsafePointer<AVCodecParameters>, timeBase: Rational) throws(FFmpegError) {
        try self.init(parameters: CodecParameters(copying: parameters, timeBase: timeBase))
    }

    /// What the frames hold: the decoder's sample format, rate and channel count (known once it
    /// is open; a few codecs settle them on the first frame, which then says so itself).
    package var format: AudioFormat {
        AudioFormat(sampleFormat: context.pointer.pointee.sample_fmt.rawValue, sampleRate: Int(context.pointer.pointee.sample_rate),
                    channels: Int(context.pointer.pointee.ch_layout.nb_channels))
    }

    /// Sends one packet (times in `timeBase`, side data and all), or nil to drain. Returns false if
    /// the decoder must give frames before it takes this packet (`EAGAIN`); send it again after
    /// receiving. The corresponding C functions are `av_packet_new_side_data` and `avcodec_send_packet`.
    @discardableResult
    package func send(_ packet: EncodedPacket?) throws(FFmpegError) -> Bool {
        // Side data carries the samples to skip: a codec's priming, an edit list's cut, the padding at the end.
        try DecoderSteps.send(packet, context: context.pointer, scratch: self.packet.pointer, timeBase: timeBase, sideData: true,
                              operation: "avcodec_send_packet(audio)")
    }

    /// The next decoded frame, its `pts` set to the best-effort timestamp in `timeBase` and its
    /// `time` to that pts in microseconds (zero if unknown).
    /// The corresponding C function is `avcodec_receive_frame`.
    package func receive() throws(FFmpegError) -> Received<AudioFrame> {
        let timeBase = self.timeBase
        return try DecoderSteps.receive(context.pointer, operation: "avcodec_receive_frame(audio)") { frame in
            let pts = frame.pointer.pointee.pts
            let time = pts == CFFMPEG_NOPTS ? Timestamp.zero : Timestamp(value: pts, timeBase: timeBase).rescaled(to: .microseconds)
            return AudioFrame(owning: frame, time: time)
        }
    }
}
