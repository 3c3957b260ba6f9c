import CFFmpeg
import RecCore

/// A libavcodec video encoder. Owned by the encode thread; not shared.
///
/// The corresponding C functions are `avcodec_alloc_context3`, `avcodec_open2`,
/// `avcodec_send_frame`, `avcodec_receive_packet` and `avcodec_free_context`.
public final class VideoEncoder {
    public let context: UnsafeMutablePointer<AVCodecContext>
    public let settings: EncoderSettings
    /// Parameters for the muxer's stream (codec, size, extradata); valid once the encoder is open.
    public let parameters: CodecParameters
    private let packet: UnsafeMutablePointer<AVPacket>
    /// GPU frames for a VAAPI encoder, which takes no system memory (HardwareFrames.swift).
    private let hardware: HardwareFrames?

    public init(_ settings: EncoderSettings) throws(FFmpegError) {
        guard let codec = avcodec_find_encoder_by_name(settings.encoder) else {
            throw FFmpegError(code: cffmpeg_averror(EINVAL), operation: "avcodec_find_encoder_by_name(\(settings.encoder))")
        }
        var ctx: UnsafeMutablePointer<AVCodecContext>? = try allocated(avcodec_alloc_context3(codec), "avcodec_alloc_context3")
        var packet: UnsafeMutablePointer<AVPacket>? = nil
        do throws(FFmpegError) {
            let c = ctx!
            c.pointee.width = Int32(settings.width)
            c.pointee.height = Int32(settings.height)
            c.pointee.pix_fmt = settings.pixelFormat.av
            hardware = try Self.hardwareFrames(for: settings)
            try hardware?.attach(to: c)
            c.pointee.time_base = settings.timeBase.av
            c.pointee.framerate = settings.frameRate.av
            if settings.globalHeader { c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
            Self.tag(c, settings.colour)
            if let top = settings.interlacedTopFirst {
                c.pointee.field_order = top ? AV_FIELD_TT : AV_FIELD_BB
                if settings.encoder == "libx264" { c.pointee.flags |= AV_CODEC_FLAG_INTERLACED_DCT | AV_CODEC_FLAG_INTERLACED_ME }
            }
            EncoderEnvironment.prepare(for: settings.encoder)
            var dict: OpaquePointer? = nil
            defer { av_dict_free(&dict) }
            for (key, value) in settings.codecOptions { av_dict_set(&dict, key, value, 0) }
            try check(avcodec_open2(c, codec, &dict), "avcodec_open2(\(settings.encoder))")
            if let unused = av_dict_get(dict, "", nil, AV_DICT_IGNORE_SUFFIX) {
                let key = String(cString: unused.pointee.key)
                throw FFmpegError(code: cffmpeg_averror(EINVAL), operation: "\(settings.encoder) has no option '\(key)'")
            }
            packet = try allocated(av_packet_alloc(), "av_packet_alloc")
            self.parameters = try CodecParameters(context: c)
        } catch {
            av_packet_free(&packet)
            avcodec_free_context(&ctx)
            throw error
        }
        self.context = ctx!
        self.packet = packet!
        self.settings = settings
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&p)
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&c)
    }

    public var timeBase: Rational { Rational(context.pointee.time_base) }

    /// Sets the context's colour fields, which encoders write into their bitstream (x264's VUI)
    /// and `avcodec_parameters_from_context` copies for the muxer.
    private static func tag(_ c: UnsafeMutablePointer<AVCodecContext>, _ colour: ColourDescription) {
        c.pointee.color_range = AVColorRange(rawValue: UInt32(colour.range.rawValue))
        c.pointee.colorspace = AVColorSpace(rawValue: UInt32(colour.matrix))
        c.pointee.color_primaries = AVColorPrimaries(rawValue: UInt32(colour.primaries))
        c.pointee.color_trc = AVColorTransferCharacteristic(rawValue: UInt32(colour.transfer))
        c.pointee.chroma_sample_location = AVChromaLocation(rawValue: UInt32(colour.chromaLocation))
        c.pointee.sample_aspect_ratio = colour.sampleAspect.av
    }

    /// The pixel format an encoder should be given for input in `input`: that one if the encoder
    /// takes it, else the one it takes that loses least. The corresponding C function is
    /// `avcodec_find_best_pix_fmt_of_list`.
    public static func bestPixelFormat(encoder name: String, for input: PixelFormat) -> PixelFormat {
        guard let codec = avcodec_find_encoder_by_name(name), let list = codec.pointee.pix_fmts else { return input }
        var i = 0
        while list[i] != AV_PIX_FMT_NONE {
            if list[i] == input.av { return input }
            i += 1
        }
        return PixelFormat(avcodec_find_best_pix_fmt_of_list(list, input.av, 0, nil))
    }

    /// Sends one frame whose `pts` is already in the encoder's time base, or nil to start draining.
    public func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws(FFmpegError) {
        if let hardware, let frame {
            return try hardware.uploading(frame) { gpu throws(FFmpegError) in try check(avcodec_send_frame(context, gpu), "avcodec_send_frame") }
        }
        try check(avcodec_send_frame(context, frame), "avcodec_send_frame")
    }

    /// The next packet, stamped in the encoder's time base.
    public func receive() throws(FFmpegError) -> Received<EncodedPacket> {
        let r = avcodec_receive_packet(context, packet)
        if r == FFmpegError.again { return .needsInput }
        if r == FFmpegError.eof { return .endOfStream }
        try check(r, "avcodec_receive_packet")
        defer { av_packet_unref(packet) }
        return .output(EncodedPacket(avPacket: packet, timeBase: timeBase, streamIndex: 0))
    }
}

extension EncodedPacket {
    /// Copies an `AVPacket`'s bytes and times; a missing dts takes the pts and vice versa.
    init(avPacket p: UnsafePointer<AVPacket>, timeBase: Rational, streamIndex: Int) {
        let bytes = p.pointee.data.map { Array(UnsafeBufferPointer(start: $0, count: Int(p.pointee.size))) } ?? []
        var pts = p.pointee.pts
        var dts = p.pointee.dts
        if pts == CFFMPEG_NOPTS { pts = dts }
        if dts == CFFMPEG_NOPTS { dts = pts }
        self.init(data: bytes, pts: pts, dts: dts, duration: p.pointee.duration, timeBase: timeBase,
                  isKeyframe: p.pointee.flags & AV_PKT_FLAG_KEY != 0, streamIndex: streamIndex)
        self.isHidden = p.pointee.flags & AV_PKT_FLAG_DISCARD != 0
    }

    /// Fills an `AVPacket` with the bytes — another reference to a demuxed packet's buffer, or a
    /// copy into its own reference-counted buffer — and the times rescaled into `target` once.
    func fill(_ p: UnsafeMutablePointer<AVPacket>, rescaledTo target: Rational, streamIndex: Int32) throws(FFmpegError) {
        if let reference = shared as? PacketReference {
            try reference.reference(into: p)
        } else {
            let bytes = data
            try check(av_new_packet(p, Int32(bytes.count)), "av_new_packet")
            bytes.withUnsafeBufferPointer { src in
                if let base = src.baseAddress, let dst = p.pointee.data { dst.update(from: base, count: src.count) }
            }
        }
        let from = timeBase.av, to = target.av
        p.pointee.pts = cffmpeg_rescale(pts, from, to)
        p.pointee.dts = cffmpeg_rescale(dts, from, to)
        p.pointee.duration = cffmpeg_rescale(duration, from, to)
        p.pointee.stream_index = streamIndex
        if isKeyframe { p.pointee.flags |= AV_PKT_FLAG_KEY }
        if isHidden { p.pointee.flags |= AV_PKT_FLAG_DISCARD }
    }
}
