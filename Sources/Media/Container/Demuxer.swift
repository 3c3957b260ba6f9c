import CFFmpeg
import Glibc
import RecCore

/// Reads packets from any file libavformat opens, or from a FIFO as a live stream (`StreamInput`).
/// Owned by one thread.
package final class Demuxer {
    package struct Stream: Sendable {
        package var index: Int
        /// The stream by kind and number among the file's streams of that kind (the file's
        /// second audio stream is `.sound(1)`); its packets carry it.
        package var id = StreamID.video
        package var parameters: CodecParameters
        package var timeBase: Rational
        /// The stream's average frame rate, if the container says.
        package var frameRate: Rational?
        /// Start and duration in the stream's time base, if known.
        package var startTime: Int64?
        package var duration: Int64?
        /// `AV_DISPOSITION_*` flags: the default track, forced, cover art, …
        package var disposition: Int32 = 0
        /// How many frames decoding runs ahead of presentation at most (`video_delay`: the
        /// stream's declared reordering, 2 for x264's B-pyramid); 0 without B-frames.
        package var reorderDepth = 0
    }

    /// How packets are read.
    package enum Reading: Sendable, Equatable {
        /// libavformat's own I/O and parsers: any file.
        case normal
        /// Packets exactly as the container stores them (`AVFMT_FLAG_NOPARSE` once the stream
        /// information is read): no parser splits, joins or flags them.
        case unparsed
        /// `unparsed`, through a `SkimmingInput`: after `skipSamples(of:)`, those streams'
        /// payloads are not read (times and flags only).
        case skimming
    }

    private let format: InputContext
    private let packet: PacketOwner
    /// The FIFO's I/O, when reading one; the format context keeps it until it is closed.
    private let input: StreamInput?
    /// The skimming I/O, when skimming; the format context keeps it until it is closed.
    private let skimmer: SkimmingInput?
    package let path: String
    package let streams: [Stream]

    private var context: UnsafeMutablePointer<AVFormatContext> { format.pointer }

    /// Opens the file and reads its stream information. A FIFO is read as a live stream: opening
    /// does not wait for a writer, and stream information is read from what the writer sends.
    /// Setting `interrupt` ends any call that waits (opening, reading) with `FFmpegError.exit`.
    /// The corresponding C functions are `avformat_open_input` (after setting the context's
    /// `interrupt_callback`) and `avformat_find_stream_info`.
    package convenience init(path: String, interrupt: InterruptFlag? = nil, reading: Reading = .normal) throws(FFmpegError) {
        try self.init(url: path, name: path, interrupt: interrupt, reading: reading)
    }

    /// Opens a network URL (`rtsp://…`) or a file with libavformat `options` (`rtsp_transport`,
    /// `timeout`, …). `name` stands for the URL in every message and in `path`: a URL's
    /// credentials must not reach an error's text.
    package init(url: String, name: String, options: [(String, String)] = [], interrupt: InterruptFlag? = nil,
                reading: Reading = .normal) throws(FFmpegError) {
        let path = url
        self.path = name
        let input = Self.isFIFO(path) ? try StreamInput(path: path, interrupt: interrupt ?? InterruptFlag()) : nil
        let skimmer = input == nil && reading == .skimming ? try SkimmingInput(path: path) : nil
        let kept: [AnyObject] = [interrupt as AnyObject?, input, skimmer].compactMap { $0 }
        format = try InputContext(url: path, options: options, name: name, keeping: kept) { ctx in
            if let interrupt { ctx.pointee.interrupt_callback = interrupt.callback }
            if let input { ctx.pointee.pb = input.context }
            if let skimmer { ctx.pointee.pb = skimmer.context }
        }
        self.input = input
        self.skimmer = skimmer
        packet = try PacketOwner()
        let ctx = format.pointer
        try check(avformat_find_stream_info(ctx, nil), "avformat_find_stream_info(\(name))")
        // Unparsed only from here: stream information still runs the parsers (H.264's field
        // order comes from them); the flush closes them and the flag keeps them closed.
        if reading != .normal {
            ctx.pointee.flags |= AVFMT_FLAG_NOPARSE
            avformat_flush(ctx)
        }
        var streams: [Stream] = []
        for i in 0..<Int(ctx.pointee.nb_streams) {
            guard let st = ctx.pointee.streams[i] else { continue }
            let tb = Rational(st.pointee.time_base)
            let rate = st.pointee.avg_frame_rate
            // A pixel shape only the container gives (Matroska's display size, MP4's pasp with
            // FFV1 or MJPEG) goes into the parameters, so decoders stamp it on their frames and
            // muxers copy it.
            if st.pointee.codecpar.pointee.sample_aspect_ratio.num == 0 {
                st.pointee.codecpar.pointee.sample_aspect_ratio = av_guess_sample_aspect_ratio(ctx, st, nil)
            }
            streams.append(Stream(
                index: i,
                parameters: try CodecParameters(copying: st.pointee.codecpar, timeBase: tb),
                timeBase: tb,
                frameRate: rate.num > 0 && rate.den > 0 ? Rational(rate) : nil,
                startTime: st.pointee.start_time == CFFMPEG_NOPTS ? nil : st.pointee.start_time,
                duration: st.pointee.duration == CFFMPEG_NOPTS ? nil : st.pointee.duration,
                disposition: st.pointee.disposition,
                reorderDepth: Int(max(0, st.pointee.codecpar.pointee.video_delay))))
        }
        for i in streams.indices {
            let kind = streams[i].parameters.streamKind
            streams[i].id = StreamID(kind, streams[..<i].count { $0.parameters.streamKind == kind })
        }
        self.streams = streams
    }

    /// Whether `path` names a FIFO (after symbolic links), which is read as a live stream.
    package static func isFIFO(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO
    }

    /// Skimming: stops reading the payloads of `streams`, whose every sample the container's index
    /// places (a complete MP4/MOV sample table). False, and nothing changes, when one of them is
    /// not fully indexed (a fragmented MP4 indexes fragments as it reaches them) or this does not skim.
    /// The corresponding C functions are `avformat_index_get_entries_count` and `avformat_index_get_entry`.
    package func skipSamples(of streams: [Int]) -> Bool {
        guard let skimmer else { return false }
        var ranges: [(start: Int64, end: Int64)] = []
        for s in streams {
            guard let st = context.pointee.streams[s] else { return false }
            let count = avformat_index_get_entries_count(st)
            guard st.pointee.nb_frames > 0, Int64(count) >= st.pointee.nb_frames else { return false }
            for i in 0..<count {
                guard let e = avformat_index_get_entry(st, i), e.pointee.pos >= 0, e.pointee.size > 0 else { continue }
                ranges.append((e.pointee.pos, e.pointee.pos + Int64(e.pointee.size)))
            }
        }
        ranges.sort { $0.start < $1.start }
        // Samples never overlap in a valid file; if two do, read everything.
        guard zip(ranges, ranges.dropFirst()).allSatisfy({ $0.end <= $1.start }) else { return false }
        // Samples stored back to back are one range, so that a buffer's worth of small ones is
        // skipped as well.
        var merged: [(start: Int64, end: Int64)] = []
        for r in ranges {
            if let last = merged.last, last.end == r.start { merged[merged.count - 1].end = r.end } else { merged.append(r) }
        }
        skimmer.file.skipped = merged
        return true
    }

    /// Bytes read from the file so far, when skimming.
    package var bytesRead: Int64? { skimmer?.file.bytesRead }

    /// Whether this reads a FIFO as a live stream (no seeking, no known duration).
    package var isStream: Bool { input != nil }

    /// Whether the container carries no times (`AVFMT_NOTIMESTAMPS`: multipart JPEG, raw MJPEG):
    /// libavformat then numbers the packets at a guessed rate (25 a second), whatever the source sends.
    package var carriesNoTimes: Bool { context.pointee.iformat.pointee.flags & AVFMT_NOTIMESTAMPS != 0 }

    /// The container's short name ("mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm").
    package var formatName: String { String(cString: context.pointee.iformat.pointee.name) }

    /// The wall-clock time, in microseconds since the Unix epoch, at the start of an RTSP camera's
    /// PLAY range (not at pts 0, nor at the first packet, for a client that joined a running
    /// stream), from its first RTCP sender report (libavformat's `start_time_realtime`): nil until
    /// one has arrived. A packet's own is `reportedWallClock`.
    package var startTimeRealtime: Timestamp? {
        let t = context.pointee.start_time_realtime
        return t == CFFMPEG_NOPTS || t <= 0 ? nil : .microseconds(t)
    }

    /// The wall-clock time the source gave the packet read last, in microseconds since the Unix
    /// epoch: an RTSP camera's, from the sender report of its stream (`AV_PKT_DATA_PRFT`), for the
    /// packets read after the stream's first report; nil for any other packet. A parsed stream's
    /// packet carries the time of the RTP packet that began the next one (`SenderReportClock`).
    package private(set) var reportedWallClock: Timestamp?

    /// The file's duration in microseconds, if known.
    package var duration: Timestamp? {
        let d = context.pointee.duration
        return d == CFFMPEG_NOPTS ? nil : .microseconds(d)
    }

    /// The index of the best video stream; `av_find_best_stream`.
    package var bestVideoStream: Int? {
        let r = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        return r >= 0 ? Int(r) : nil
    }

    /// The next packet in file order (with its side data), or nil at the end of the file; its bytes
    /// stay in FFmpeg's buffer (`PacketReference`), which a muxer or decoder shares. Packets
    /// whose `pts` is unknown take their `dts` (and the other way round). The corresponding C
    /// function is `av_read_frame`. Packets of streams that appear after the file was opened
    /// (MPEG-TS can add them) are skipped.
    package func read() throws(FFmpegError) -> EncodedPacket? { try next(payload: true) }

    /// The next packet's times, flags and stream, without copying its bytes: what a cut plans
    /// from. `data` is empty.
    package func readMetadata() throws(FFmpegError) -> EncodedPacket? { try next(payload: false) }

    private func next(payload: Bool) throws(FFmpegError) -> EncodedPacket? {
        while true {
            let r = av_read_frame(context, packet.pointer)
            if r == FFmpegError.eof { return nil }
            try check(r, "av_read_frame(\(path))")
            defer { av_packet_unref(packet.pointer) }
            let index = Int(packet.pointer.pointee.stream_index)
            guard index < streams.count else { continue }
            let tb = streams[index].timeBase
            let p = packet.pointer.pointee
            let wall = p.side_data_elems > 0 ? cffmpeg_packet_prft_wallclock(packet.pointer) : CFFMPEG_NOPTS
            reportedWallClock = wall == CFFMPEG_NOPTS ? nil : .microseconds(wall)
            let pts = p.pts == CFFMPEG_NOPTS ? p.dts : p.pts
            let dts = p.dts == CFFMPEG_NOPTS ? pts : p.dts
            if payload {
                var e = try EncodedPacket(taking: packet.pointer, timeBase: tb, streamIndex: index)
                e.stream = streams[index].id
                return e
            }
            var e = EncodedPacket(data: [], pts: pts, dts: dts, duration: p.duration, timeBase: tb,
                                  isKeyframe: p.flags & AV_PKT_FLAG_KEY != 0, streamIndex: index, stream: streams[index].id)
            e.isHidden = p.flags & AV_PKT_FLAG_DISCARD != 0
            return e
        }
    }

    /// Seeks so that the next packet read on `stream` is the keyframe at or before `time`.
    /// The corresponding C function is `avformat_seek_file`.
    package func seek(stream: Int, toKeyframeBefore time: Timestamp) throws(FFmpegError) {
        let ts = time.rescaled(to: streams[stream].timeBase).value
        try check(avformat_seek_file(context, Int32(stream), Int64.min, ts, ts, AVSEEK_FLAG_BACKWARD),
                  "avformat_seek_file(\(path))")
    }
}
