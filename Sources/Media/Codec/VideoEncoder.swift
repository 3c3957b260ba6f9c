import CFFmpeg
import RecCore

/// A libavcodec video encoder. Owned by the encode thread; not shared.
///
/// The corresponding C functions are `avcodec_alloc_context3`, `avcodec_open2`,
/// `avcodec_send_frame`, `avcodec_receive_packet` and `avcodec_free_context`.
package final class VideoEncoder {
    private let context: CodecContext
    package let settings: EncoderSettings
    /// Parameters for the muxer's stream (codec, size, extradata); valid once the encoder is open.
    package let parameters: CodecParameters
    private let packet: PacketOwner
    /// What is sent: another reference to the caller's picture, with the encoder's own pts, so
    /// the caller's frame is never written to.
    private let input: FrameOwner
    /// GPU frames for a VAAPI encoder, which takes no system memory (HardwareFrames.swift).
    private let hardware: HardwareFrames?

    package init(_ settings: EncoderSettings) throws(FFmpegError) {
        guard let codec = avcodec_find_encoder_by_name(settings.encoder) else {
            throw FFmpegError(code: cffmpeg_averror(EINVAL), operation: "avcodec_find_encoder_by_name(\(settings.encoder))")
        }
        context = try CodecContext(codec)
        let c = context.pointer
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
        try context.open(options: settings.codecOptions, name: settings.encoder)
        packet = try PacketOwner()
        input = try FrameOwner()
        parameters = try CodecParameters(context: c)
        self.settings = settings
    }

    package var timeBase: Rational { Rational(context.pointer.pointee.time_base) }

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
    package static func bestPixelFormat(encoder name: String, for input: PixelFormat) -> PixelFormat {
        guard let codec = avcodec_find_encoder_by_name(name), let list = codec.pointee.pix_fmts else { return input }
        var i = 0
        while list[i] != AV_PIX_FMT_NONE {
            if list[i] == input.av { return input }
            i += 1
        }
        return PixelFormat(avcodec_find_best_pix_fmt_of_list(list, input.av, 0, nil))
    }

    /// Sends another reference to `frame`'s picture stamped `pts` (in the encoder's time base),
    /// as a keyframe when `keyframe` (else with no picture type forced) and, under `qscale`, the quality asked for: `frame` itself is
    /// not written to. The corresponding C functions are `av_frame_ref` and `avcodec_send_frame`.
    package func send(_ frame: VideoFrame, pts: Int64, keyframe: Bool = false) throws(FFmpegError) {
        let f = input.pointer
        try check(av_frame_ref(f, frame.pointer), "av_frame_ref")
        defer { av_frame_unref(f) }
        f.pointee.pts = pts
        f.pointee.pict_type = keyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        if case .qscale = settings.rateControl { f.pointee.quality = context.pointer.pointee.global_quality }
        if let hardware {
            return try hardware.uploading(f) { gpu throws(FFmpegError) in
                try check(avcodec_send_frame(context.pointer, gpu), "avcodec_send_frame")
            }
        }
        try check(avcodec_send_frame(context.pointer, f), "avcodec_send_frame")
    }

    /// Starts draining: the encoder gives what it still holds, then `.endOfStream`.
    /// The corresponding C function is `avcodec_send_frame` with no frame.
    package func sendEnd() throws(FFmpegError) {
        try check(avcodec_send_frame(context.pointer, nil), "avcodec_send_frame(end)")
    }

    /// The next packet, stamped in the encoder's time base, holding the encoder's buffer and side
    /// data by reference (`PacketReference`): whoever writes it takes another reference, and no
    /// byte is copied. The corresponding C function is `avcodec_receive_packet`.
    package func receive() throws(FFmpegError) -> Received<EncodedPacket> {
        let r = avcodec_receive_packet(context.pointer, packet.pointer)
        if r == FFmpegError.again { return .needsInput }
        if r == FFmpegError.eof { return .endOfStream }
        try check(r, "avcodec_receive_packet")
        return .output(try EncodedPacket(taking: packet.pointer, timeBase: timeBase, streamIndex: 0))
    }
}
