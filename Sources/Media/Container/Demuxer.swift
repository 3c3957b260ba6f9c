import CFFmpeg
import RecCore

/// Reads packets from any file libavformat opens. Owned by one thread.
public final class Demuxer {
    public struct Stream: Sendable {
        public var index: Int
        public var parameters: CodecParameters
        public var timeBase: Rational
        /// The stream's average frame rate, if the container says.
        public var frameRate: Rational?
        /// Start and duration in the stream's time base, if known.
        public var startTime: Int64?
        public var duration: Int64?
        /// `AV_DISPOSITION_*` flags: the default track, forced, cover art, …
        public var disposition: Int32 = 0
    }

    private var context: UnsafeMutablePointer<AVFormatContext>?
    private let packet: UnsafeMutablePointer<AVPacket>
    public let path: String
    public let streams: [Stream]

    /// Opens the file and reads its stream information. The corresponding C functions are
    /// `avformat_open_input` and `avformat_find_stream_info`.
    public init(path: String) throws(FFmpegError) {
        self.path = path
        var ctx: UnsafeMutablePointer<AVFormatContext>? = nil
        try check(avformat_open_input(&ctx, path, nil, nil), "avformat_open_input(\(path))")
        var pkt = av_packet_alloc()
        var streams: [Stream] = []
        do throws(FFmpegError) {
            _ = try allocated(pkt, "av_packet_alloc")
            try check(avformat_find_stream_info(ctx, nil), "avformat_find_stream_info(\(path))")
            for i in 0..<Int(ctx!.pointee.nb_streams) {
                let st = ctx!.pointee.streams[i]!
                let tb = Rational(st.pointee.time_base)
                let rate = st.pointee.avg_frame_rate
                streams.append(Stream(
                    index: i,
                    parameters: try CodecParameters(copying: st.pointee.codecpar, timeBase: tb),
                    timeBase: tb,
                    frameRate: rate.num > 0 && rate.den > 0 ? Rational(rate) : nil,
                    startTime: st.pointee.start_time == CFFMPEG_NOPTS ? nil : st.pointee.start_time,
                    duration: st.pointee.duration == CFFMPEG_NOPTS ? nil : st.pointee.duration,
                    disposition: st.pointee.disposition))
            }
        } catch {
            av_packet_free(&pkt)
            avformat_close_input(&ctx)
            throw error
        }
        self.context = ctx
        self.packet = pkt!
        self.streams = streams
    }

    deinit {
        avformat_close_input(&context)
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&p)
    }

    /// The container's short name ("mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm").
    public var formatName: String { String(cString: context!.pointee.iformat.pointee.name) }

    /// The file's duration in microseconds, if known.
    public var duration: Timestamp? {
        let d = context!.pointee.duration
        return d == CFFMPEG_NOPTS ? nil : .microseconds(d)
    }

    /// The index of the best video stream; `av_find_best_stream`.
    public var bestVideoStream: Int? {
        let r = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        return r >= 0 ? Int(r) : nil
    }

    /// The next packet in file order (with its side data), or nil at the end of the file. Packets
    /// whose `pts` is unknown take their `dts` (and the other way round). The corresponding C
    /// function is `av_read_frame`. Packets of streams that appear after the file was opened
    /// (MPEG-TS can add them) are skipped.
    public func read() throws(FFmpegError) -> EncodedPacket? { try next(payload: true) }

    /// The next packet's times, flags and stream, without copying its bytes: what a cut plans
    /// from. `data` is empty.
    public func readMetadata() throws(FFmpegError) -> EncodedPacket? { try next(payload: false) }

    private func next(payload: Bool) throws(FFmpegError) -> EncodedPacket? {
        while true {
            let r = av_read_frame(context, packet)
            if r == FFmpegError.eof { return nil }
            try check(r, "av_read_frame(\(path))")
            defer { av_packet_unref(packet) }
            let index = Int(packet.pointee.stream_index)
            guard index < streams.count else { continue }
            let tb = streams[index].timeBase
            guard payload else {
                let p = packet.pointee
                let pts = p.pts == CFFMPEG_NOPTS ? p.dts : p.pts
                let dts = p.dts == CFFMPEG_NOPTS ? pts : p.dts
                var e = EncodedPacket(data: [], pts: pts, dts: dts, duration: p.duration, timeBase: tb,
                                      isKeyframe: p.flags & AV_PKT_FLAG_KEY != 0, streamIndex: index)
                e.isHidden = p.flags & AV_PKT_FLAG_DISCARD != 0
                return e
            }
            var p = EncodedPacket(avPacket: packet, timeBase: tb, streamIndex: index)
            p.sideData = PacketSideData.copied(from: packet)
            return p
        }
    }

    /// Seeks so that the next packet read on `stream` is the keyframe at or before `time`.
    /// The corresponding C function is `avformat_seek_file`.
    public func seek(stream: Int, toKeyframeBefore time: Timestamp) throws(FFmpegError) {
        let ts = time.rescaled(to: streams[stream].timeBase).value
        try check(avformat_seek_file(context, Int32(stream), Int64.min, ts, ts, AVSEEK_FLAG_BACKWARD),
                  "avformat_seek_file(\(path))")
    }
}
