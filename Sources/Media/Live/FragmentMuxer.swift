import CFFmpeg
import RecCore

/// Fragmented MP4 in memory for Media Source Extensions: an init segment (ftyp + an empty moov,
/// from the encoder's codec parameters) and then one moof + mdat per packet. libavformat's mp4
/// muxer writes into a memory `AVIOContext` whose write callback appends to a byte buffer; no
/// packet is encoded again. Owned by one thread (the live fan-out thread).
///
/// The corresponding C functions are `avio_alloc_context` (with a write callback),
/// `avformat_write_header` with `movflags=empty_moov+default_base_moof+frag_custom`,
/// `av_write_frame`, and `av_write_frame(ctx, NULL)` to close each fragment.
public final class FragmentMuxer {
    /// What the write callback appends to; the muxer's `opaque`.
    private final class Sink {
        var bytes: [UInt8] = []
    }

    private let context: UnsafeMutablePointer<AVFormatContext>
    private var io: UnsafeMutablePointer<AVIOContext>?
    private let packet: UnsafeMutablePointer<AVPacket>
    private let sink = Sink()
    private let timeBase: Rational
    /// ftyp + moov: what every viewer gets first.
    public let initSegment: [UInt8]
    /// The codecs string for `addSourceBuffer` (`video/mp4; codecs="avc1.64001F"`).
    public let mimeType: String

    public init(parameters: CodecParameters) throws(FFmpegError) {
        var ctx: UnsafeMutablePointer<AVFormatContext>? = nil
        try check(avformat_alloc_output_context2(&ctx, nil, "mp4", nil), "avformat_alloc_output_context2(mp4)")
        var pkt = av_packet_alloc()
        var pb: UnsafeMutablePointer<AVIOContext>? = nil
        let opaque = Unmanaged.passUnretained(sink).toOpaque()
        do throws(FFmpegError) {
            let c = try allocated(ctx, "avformat_alloc_output_context2")
            _ = try allocated(pkt, "av_packet_alloc")
            let st = try allocated(avformat_new_stream(c, nil), "avformat_new_stream")
            try check(avcodec_parameters_copy(st.pointee.codecpar, parameters.pointer), "avcodec_parameters_copy")
            st.pointee.codecpar.pointee.codec_tag = 0
            st.pointee.time_base = parameters.timeBase.av
            let size: Int32 = 64 * 1024
            let buffer = try allocated(av_malloc(Int(size)), "av_malloc").assumingMemoryBound(to: UInt8.self)
            pb = avio_alloc_context(buffer, size, 1, opaque, nil, { opaque, buf, count in
                guard let opaque, let buf, count > 0 else { return 0 }
                let sink = Unmanaged<Sink>.fromOpaque(opaque).takeUnretainedValue()
                sink.bytes.append(contentsOf: UnsafeBufferPointer(start: buf, count: Int(count)))
                return count
            }, nil)
            if pb == nil { av_free(buffer) }
            c.pointee.pb = try allocated(pb, "avio_alloc_context")
            c.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
            var dict: OpaquePointer? = nil
            defer { av_dict_free(&dict) }
            av_dict_set(&dict, "movflags", "empty_moov+default_base_moof+frag_custom+omit_tfhd_offset", 0)
            try check(avformat_write_header(c, &dict), "avformat_write_header(fragmented mp4)")
            avio_flush(c.pointee.pb)
        } catch {
            if let p = pb { av_free(p.pointee.buffer) }
            avio_context_free(&pb)
            avformat_free_context(ctx)
            av_packet_free(&pkt)
            throw error
        }
        context = ctx!
        io = pb
        packet = pkt!
        timeBase = Rational(ctx!.pointee.streams[0]!.pointee.time_base)
        initSegment = sink.bytes
        sink.bytes.removeAll()
        let codecs = CodecString.h264(extradata: parameters.extradata).map { "; codecs=\"\($0)\"" } ?? ""
        mimeType = "video/mp4" + codecs
    }

    deinit {
        avformat_free_context(context)
        if let p = io { av_free(p.pointee.buffer) }
        avio_context_free(&io)
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&p)
    }

    /// One packet as a moof + mdat fragment. Packets must come in decode order.
    public func fragment(_ encoded: EncodedPacket) throws(FFmpegError) -> [UInt8] {
        try encoded.fill(packet, rescaledTo: timeBase, streamIndex: 0)
        try check(av_write_frame(context, packet), "av_write_frame(fragmented mp4)")
        av_packet_unref(packet)
        try check(av_write_frame(context, nil), "av_write_frame(flush fragment)")
        avio_flush(context.pointee.pb)
        defer { sink.bytes.removeAll(keepingCapacity: true) }
        return sink.bytes
    }
}
