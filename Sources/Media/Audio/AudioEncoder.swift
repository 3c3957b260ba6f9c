import CFFmpeg
import RecCore

/// A libavcodec audio encoder (`aac`, `libopus`, `flac`, `pcm_s16le`, `pcm_s24le`) and the frame it
/// is fed from. Owned by the audio thread; not shared. `AudioPipeline` drives it.
///
/// The corresponding C functions are `avcodec_alloc_context3`, `avcodec_open2`,
/// `avcodec_send_frame`, `avcodec_receive_packet` and `avcodec_free_context`.
final class AudioEncoder {
    private let context: CodecContext
    private let packet: PacketOwner
    /// The frame samples go into on their way from the FIFO to the encoder; reused.
    private let frame: FrameOwner
    let encoding: AudioEncoding
    /// What the encoder takes: its sample format (from its own list), rate and channels.
    let format: AudioFormat
    /// Samples per frame sent: the encoder's `frame_size`, or 1024 for encoders that take any
    /// length (PCM).
    let frameSize: Int
    /// The stream's parameters (`avcodec_parameters_from_context`: extradata, `initial_padding`).
    let parameters: CodecParameters

    /// Opens the encoder. `input` is the sample format the source delivers, kept when the encoder
    /// takes it (`AudioEncoder.bestSampleFormat`).
    init(_ encoding: AudioEncoding, input: Int32) throws(FFmpegError) {
        guard let codec = avcodec_find_encoder_by_name(encoding.encoder), codec.pointee.type == AVMEDIA_TYPE_AUDIO else {
            throw FFmpegError(code: cffmpeg_averror(EINVAL),
                              operation: "no audio encoder '\(encoding.encoder)' in this FFmpeg (`ffmpeg -encoders` lists them)")
        }
        guard (1...8).contains(encoding.channels) else {
            throw FFmpegError(code: cffmpeg_averror(EINVAL), operation: "\(encoding.channels) audio channels; record 1 to 8")
        }
        let rates = Self.sampleRates(codec)
        guard rates.isEmpty || rates.contains(encoding.sampleRate) else {
            throw FFmpegError(code: cffmpeg_averror(EINVAL),
                              operation: "\(encoding.encoder) cannot encode \(encoding.sampleRate) Hz; use one of \(rates.map(String.init).joined(separator: ", "))")
        }
        let sampleFormat = Self.bestSampleFormat(codec, for: input)
        context = try CodecContext(codec)
        let c = context.pointer
        c.pointee.sample_fmt = AVSampleFormat(rawValue: sampleFormat)
        c.pointee.sample_rate = Int32(encoding.sampleRate)
        try ChannelLayout.set(&c.pointee.ch_layout, channels: encoding.channels)
        c.pointee.time_base = AVRational(num: 1, den: Int32(encoding.sampleRate))
        if let bitrate = encoding.bitrate { c.pointee.bit_rate = Int64(bitrate) }
        c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        try context.open(name: "\(encoding.encoder), \(encoding.sampleRate) Hz, \(encoding.channels) ch")
        packet = try PacketOwner()
        frame = try FrameOwner()
        parameters = try CodecParameters(context: c)
        self.encoding = encoding
        self.format = AudioFormat(sampleFormat: sampleFormat, sampleRate: encoding.sampleRate, channels: encoding.channels)
        let variable = codec.pointee.capabilities & AV_CODEC_CAP_VARIABLE_FRAME_SIZE != 0
        self.frameSize = variable || c.pointee.frame_size <= 0 ? 1024 : Int(c.pointee.frame_size)
    }

    var timeBase: Rational { Rational(context.pointer.pointee.time_base) }

    /// The sample format to encode input of format `input` in: that one if the encoder takes it,
    /// else its packed or planar twin, else the one with the most bits (flac's s32 for float
    /// input, keeping 24 bits), first in the encoder's list on a tie.
    static func bestSampleFormat(_ codec: UnsafePointer<AVCodec>, for input: Int32) -> Int32 {
        guard var p = codec.pointee.sample_fmts else { return input }
        var offered: [AVSampleFormat] = []
        while p.pointee != AV_SAMPLE_FMT_NONE {
            offered.append(p.pointee)
            p += 1
        }
        let given = AVSampleFormat(rawValue: input)
        let twins = [given, av_get_packed_sample_fmt(given), av_get_planar_sample_fmt(given)]
        if let same = twins.first(where: offered.contains) { return same.rawValue }
        let widest = offered.max { av_get_bytes_per_sample($0) < av_get_bytes_per_sample($1) }
        return (widest ?? given).rawValue
    }

    /// The rates an encoder lists (`AVCodec.supported_samplerates`); empty when it takes any.
    static func sampleRates(_ codec: UnsafePointer<AVCodec>) -> [Int] {
        guard var p = codec.pointee.supported_samplerates else { return [] }
        var rates: [Int] = []
        while p.pointee != 0 {
            rates.append(Int(p.pointee))
            p += 1
        }
        return rates
    }

    /// Reads `count` samples from the FIFO into the input frame, stamps it `pts` (in the
    /// encoder's time base, 1/rate) and sends it. A last frame may be short: libavcodec pads it
    /// as the encoder needs. The corresponding C functions are `av_frame_make_writable`,
    /// `av_audio_fifo_read` and `avcodec_send_frame`.
    func send(from fifo: AudioFIFO, count: Int, pts: Int64) throws(FFmpegError) {
        let frame = self.frame.pointer
        if frame.pointee.nb_samples != Int32(count) || frame.pointee.buf.0 == nil {
            av_frame_unref(frame)
            frame.pointee.format = format.sampleFormat
            frame.pointee.sample_rate = Int32(format.sampleRate)
            frame.pointee.nb_samples = Int32(count)
            try check(av_channel_layout_copy(&frame.pointee.ch_layout, &context.pointer.pointee.ch_layout), "av_channel_layout_copy")
            try check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer(audio)")
        } else {
            try check(av_frame_make_writable(frame), "av_frame_make_writable")
        }
        try fifo.read(into: frame, count: count)
        frame.pointee.pts = pts
        try check(avcodec_send_frame(context.pointer, frame), "avcodec_send_frame(\(encoding.encoder))")
    }

    /// Starts draining: the encoder gives what it still holds, then `.endOfStream`.
    func sendEnd() throws(FFmpegError) {
        try check(avcodec_send_frame(context.pointer, nil), "avcodec_send_frame(\(encoding.encoder), end)")
    }

    /// The next packet, stamped in the encoder's time base, as stream 1 of the session (video is
    /// 0), holding the encoder's buffer and side data by reference (`PacketReference`: libopus's
    /// `AV_PKT_DATA_SKIP_SAMPLES` on the last packet, flac's final `AV_PKT_DATA_NEW_EXTRADATA`).
    /// Every audio packet is a keyframe; `captureTime` is its pts. The corresponding C function is
    /// `avcodec_receive_packet`.
    func receive() throws(FFmpegError) -> Received<EncodedPacket> {
        let r = avcodec_receive_packet(context.pointer, packet.pointer)
        if r == FFmpegError.again { return .needsInput }
        if r == FFmpegError.eof { return .endOfStream }
        try check(r, "avcodec_receive_packet(\(encoding.encoder))")
        var out = try EncodedPacket(taking: packet.pointer, timeBase: timeBase, streamIndex: 0)
        // The first sound until its owner names it (a session's second microphone is `.sound(1)`).
        out.stream = .sound(0)
        out.isKeyframe = true
        out.captureTime = out.presentationTime
        return .output(out)
    }
}

/// Channel layouts for a channel count: FFmpeg's default order, except 3 and 4 channels, where the
/// default (2.1, 4.0) has no layout libopus and flac accept; they get 3.0 and quad, the Vorbis and
/// FLAC orders.
enum ChannelLayout {
    /// The corresponding C functions are `av_channel_layout_from_string` and
    /// `av_channel_layout_default`.
    static func set(_ layout: UnsafeMutablePointer<AVChannelLayout>, channels: Int) throws(FFmpegError) {
        av_channel_layout_uninit(layout)
        switch channels {
        case 3: try check(av_channel_layout_from_string(layout, "3.0"), "av_channel_layout_from_string(3.0)")
        case 4: try check(av_channel_layout_from_string(layout, "quad"), "av_channel_layout_from_string(quad)")
        default: av_channel_layout_default(layout, Int32(channels))
        }
    }
}
