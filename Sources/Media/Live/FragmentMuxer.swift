import CFFmpeg
import RecCore

/// Fragmented MP4 in memory for Media Source Extensions: an init segment (ftyp + an empty moov,
/// from the encoders' codec parameters: the pictures, and the sound when there is one) and then
/// one moof + mdat per picture, holding that picture and the sound that came before it.
/// libavformat's mp4 muxer writes into a memory `AVIOContext` whose write callback appends to a
/// byte buffer; no packet is encoded again. Owned by one thread (the live fan-out thread).
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
    /// The muxer's time base for the pictures, and for the sound when it is carried.
    private let timeBases: [Rational]
    /// ftyp + moov: what every viewer gets first.
    public let initSegment: [UInt8]
    /// Whether a sound track is carried (the session's first sound goes to it).
    public let hasSound: Bool
    /// The streams carried, in track order: the session's pictures, and its first sound.
    public let streams: [StreamID]
    /// Whether a fragment was made. libavformat moves the first packet's time to 0 and every
    /// other by as much, so the first fragment's first packet must be the earliest.
    public private(set) var started = false

    /// `sound`: the session's sound encoder's parameters, to carry it as a second track.
    public init(parameters: CodecParameters, sound: CodecParameters? = nil) throws(FFmpegError) {
        var ctx: UnsafeMutablePointer<AVFormatContext>? = nil
        try check(avformat_alloc_output_context2(&ctx, nil, "mp4", nil), "avformat_alloc_output_context2(mp4)")
        var pkt = av_packet_alloc()
        var pb: UnsafeMutablePointer<AVIOContext>? = nil
        let opaque = Unmanaged.passUnretained(sink).toOpaque()
        do throws(FFmpegError) {
            let c = try allocated(ctx, "avformat_alloc_output_context2")
            _ = try allocated(pkt, "av_packet_alloc")
            for track in [parameters] + (sound.map { [$0] } ?? []) {
                let st = try allocated(avformat_new_stream(c, nil), "avformat_new_stream")
                try check(avcodec_parameters_copy(st.pointee.codecpar, track.pointer), "avcodec_parameters_copy")
                st.pointee.codecpar.pointee.codec_tag = 0
                st.pointee.time_base = track.timeBase.av
            }
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
        timeBases = (0..<Int(ctx!.pointee.nb_streams)).map { Rational(ctx!.pointee.streams[$0]!.pointee.time_base) }
        hasSound = sound != nil
        streams = [.video] + (sound != nil ? [.sound(0)] : [])
        initSegment = sink.bytes
        sink.bytes.removeAll()
    }

    deinit {
        avformat_free_context(context)
        if let p = io { av_free(p.pointee.buffer) }
        avio_context_free(&io)
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&p)
    }

    /// Packets as one moof + mdat fragment: the sound that came before a picture, then the
    /// picture. Each stream's packets must come in decode order; sound is left out when the
    /// muxer carries none.
    public func fragment(_ packets: [EncodedPacket]) throws(FFmpegError) -> [UInt8] {
        for encoded in packets {
            guard let index = streams.firstIndex(of: encoded.stream), index < timeBases.count else { continue }
            try encoded.fill(packet, rescaledTo: timeBases[index], streamIndex: Int32(index))
            let written = av_write_frame(context, packet)
            av_packet_unref(packet)
            try check(written, "av_write_frame(fragmented mp4)")
        }
        started = true
        try check(av_write_frame(context, nil), "av_write_frame(flush fragment)")
        avio_flush(context.pointee.pb)
        defer { sink.bytes.removeAll(keepingCapacity: true) }
        return sink.bytes
    }
}
