import Glibc
import CFFmpeg
import RecCore

/// Writes packets into a container file with libavformat. Owned by one thread.
///
/// Packets arrive in any time base and are rescaled once into the stream's time base, which the
/// muxer chooses in `avformat_write_header`. Finishing a file is explicit: `finish()` writes the
/// trailer, then closes the I/O context, then frees the format context, in FFmpeg mux.c's order.
/// A muxer dropped without `finish()` closes its file as it stands (no trailer): that is what a
/// crash would leave, and why recordings use formats that survive it.
package final class Muxer {
    // `@exclusivity(unchecked)`: the state touched for every packet. This object is owned by one
    // thread and never lends that state across a call that could reach it again, so the runtime's
    // check of each access (~80 instructions under callgrind, several per packet) never fires.
    @exclusivity(unchecked) private var output: OutputContext
    private let packet: PacketOwner
    @exclusivity(unchecked) private var finished = false
    package let path: String
    /// The stream time bases chosen by the muxer, by stream index.
    package private(set) var streamTimeBases: [Rational] = []
    @exclusivity(unchecked) package private(set) var bytesWritten: Int64 = 0
    /// Whether libavformat interleaves the streams (`av_interleaved_write_frame`), or the caller
    /// already gives every packet in the order it is to be written (`av_write_frame`).
    private let interleaves: Bool

    /// Creates the file (or connects to the server) and writes its header.
    /// - Parameters:
    ///   - container: libavformat's short name ("mp4", "matroska", "webm", "mov"); nil guesses from the path.
    ///   - options: muxer options, e.g. `["movflags": "frag_keyframe+empty_moov+default_base_moof"]`.
    ///   - dispositions: `AV_DISPOSITION_*` flags by stream (the default track, …); none if empty.
    ///   - interrupt: set from any thread, it ends whatever call of this muxer waits on its output
    ///     (connecting, the header, a write to a server that went silent, the trailer) with
    ///     `FFmpegError.exit`; the owner keeps it and sets it to stop.
    /// The corresponding C functions are `avformat_alloc_output_context2`, `avformat_new_stream`,
    /// `avio_open2` (with the context's `interrupt_callback`) and `avformat_write_header`.
    ///   - tags: the sample entry to write for a codec where the container has two
    ///     (`ContainerFormat.preferredTags`: H.265 in MP4 as `hvc1`, which Apple's players and
    ///     browsers take, not FFmpeg's default `hev1`).
    ///   - interleaves: false when the caller writes the packets in their final order itself
    ///     (one stream, or `Interleave`'s order into a format that keeps each stream apart, as
    ///     fragmented MP4 does): each is then written as it comes, over its own bytes, with no
    ///     buffer reference or queue entry made for it (`av_write_frame`).
    package init(path: String, container: String?, streams: [CodecParameters],
                options: [String: String] = [:], dispositions: [Int32] = [],
                interrupt: InterruptFlag? = nil, tags: [Codec: String] = [:], interleaves: Bool = true) throws(FFmpegError) {
        self.path = path
        self.interleaves = interleaves
        var output = try OutputContext(format: container, url: path, interrupt: interrupt)
        let c = output.pointer
        for (n, params) in streams.enumerated() {
            let st = try allocated(avformat_new_stream(c, nil), "avformat_new_stream")
            if n < dispositions.count { st.pointee.disposition = dispositions[n] }
            try check(avcodec_parameters_copy(st.pointee.codecpar, params.pointer), "avcodec_parameters_copy")
            st.pointee.codecpar.pointee.codec_tag = 0
            // hvc1 keeps the parameter sets in the sample entry, so only with extradata.
            if let tag = tags[params.codec], !params.extradata.isEmpty { st.pointee.codecpar.pointee.codec_tag = Self.fourCC(tag) }
            st.pointee.time_base = params.timeBase.av
            // Matroska writes the display size from the stream's aspect ratio, not codecpar's.
            st.pointee.sample_aspect_ratio = st.pointee.codecpar.pointee.sample_aspect_ratio
        }
        if output.needsIO { try output.open(url: path) }
        do throws(FFmpegError) {
            var dict: OpaquePointer? = nil
            defer { av_dict_free(&dict) }
            for (k, v) in options.sorted(by: { $0.key < $1.key }) { av_dict_set(&dict, k, v, 0) }
            try check(avformat_write_header(c, &dict), "avformat_write_header(\(path))")
        } catch {
            if output.io == .url {
                _ = output.closeIO()
                unlink(path)  // created here and never got a header: nothing worth keeping
            }
            throw error
        }
        packet = try PacketOwner()
        streamTimeBases = (0..<Int(c.pointee.nb_streams)).compactMap { c.pointee.streams[$0].map { Rational($0.pointee.time_base) } }
        self.output = output
    }

    private var context: UnsafeMutablePointer<AVFormatContext>? { finished ? nil : output.pointer }

    /// Writes one packet (and its side data) to stream `packet.streamIndex`, interleaving by dts
    /// unless the caller does: another reference to the packet's buffer when FFmpeg made it, or
    /// its bytes lent for the call, so no byte is copied. The corresponding C functions are
    /// `av_interleaved_write_frame` and `av_write_frame`.
    package func write(_ packet: EncodedPacket) throws(FFmpegError) {
        guard let c = context else { throw FFmpegError(code: cffmpeg_averror(EINVAL), operation: "write after finish") }
        let index = packet.streamIndex
        precondition(index >= 0 && index < streamTimeBases.count, "stream index \(index) out of range")
        if interleaves {
            try packet.fill(self.packet.pointer, rescaledTo: streamTimeBases[index], streamIndex: Int32(index))
            try check(av_interleaved_write_frame(c, self.packet.pointer), "av_interleaved_write_frame(\(path))")
        } else {
            try packet.lend(self.packet.pointer, rescaledTo: streamTimeBases[index], streamIndex: Int32(index)) { (p) throws(FFmpegError) in
                try check(av_write_frame(c, p), "av_write_frame(\(path))")
            }
        }
        bytesWritten = c.pointee.pb.map { avio_tell($0) } ?? bytesWritten
    }

    /// Pushes buffered bytes to the operating system (so a crash after this loses none of them).
    /// Throws the I/O error (a full disk, say) that any write since the last check met: libavformat
    /// buffers writes and keeps their first error in the I/O context rather than returning it.
    /// The corresponding C function is `avio_flush`.
    package func flush() throws(FFmpegError) {
        guard let pb = context?.pointee.pb else { return }
        avio_flush(pb)
        bytesWritten = avio_tell(pb)
        if pb.pointee.error < 0 { throw FFmpegError(code: pb.pointee.error, operation: "writing \(path)") }
    }

    /// Ends the fragment (MP4/MOV) or cluster (Matroska) being filled and writes it out; the next
    /// packet starts another. The corresponding C function is `av_write_frame` with no packet.
    package func endFragment() throws(FFmpegError) {
        guard let c = context else { return }
        try check(av_write_frame(c, nil), "av_write_frame(\(path), end of fragment)")
        bytesWritten = c.pointee.pb.map { avio_tell($0) } ?? bytesWritten
    }

    /// Closes the file as it stands, without a trailer, ignoring I/O errors (after a write failed,
    /// the caller cuts the file back to its last complete fragment). The corresponding C function
    /// is `avio_closep`; the format context is freed with the muxer.
    package func abandon() {
        guard !finished else { return }
        finished = true
        _ = output.closeIO()
    }

    /// Writes the trailer and closes the file. The corresponding C functions are `av_write_trailer`
    /// and `avio_closep`; the format context is freed with the muxer (`avformat_free_context`).
    package func finish() throws(FFmpegError) {
        guard let c = context else { return }
        finished = true
        let trailer = av_write_trailer(c)
        bytesWritten = c.pointee.pb.map { avio_tell($0) } ?? bytesWritten
        let closed = output.closeIO()
        try check(trailer, "av_write_trailer(\(path))")
        try check(closed, "avio_closep(\(path))")
    }

    /// `MKTAG(a, b, c, d)`: a four-character code as FFmpeg stores it.
    static func fourCC(_ text: String) -> UInt32 {
        text.utf8.prefix(4).enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }
}
