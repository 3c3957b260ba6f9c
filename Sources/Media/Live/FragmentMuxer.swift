import CFFmpeg
import RecCore

/// Fragmented MP4 in memory for Media Source Extensions: an init segment (ftyp + an empty moov,
/// from the encoders' codec parameters: the pictures, and the sound when there is one) and then
/// one moof + mdat per picture, holding that picture and the sound that came before it.
/// libavformat's mp4 muxer writes into a growing memory buffer (`avio_open_dyn_buf`), one per
/// segment, which each segment's end takes; no packet is encoded again, and each packet's bytes go
/// in by reference. Owned by one thread (the live fan-out thread).
///
/// The corresponding C functions are `avio_open_dyn_buf` and `avio_close_dyn_buf`,
/// `avformat_write_header` with `movflags=empty_moov+default_base_moof+frag_custom`,
/// `av_write_frame`, and `av_write_frame(ctx, NULL)` to close each fragment.
package final class FragmentMuxer {
    private var output: OutputContext
    private let packet: PacketOwner
    /// The muxer's time base for the pictures, and for the sound when it is carried.
    private let timeBases: [Rational]
    /// ftyp + moov: what every viewer gets first.
    package let initSegment: [UInt8]
    /// Whether a sound track is carried (the session's first sound goes to it).
    package let hasSound: Bool
    /// The streams carried, in track order: the session's pictures, and its first sound.
    package let streams: [StreamID]
    /// Whether a fragment was made. libavformat moves the first packet's time to 0 and every
    /// other by as much, so the first fragment's first packet must be the earliest.
    package private(set) var started = false

    /// `sound`: the session's sound encoder's parameters, to carry it as a second track.
    package init(parameters: CodecParameters, sound: CodecParameters? = nil) throws(FFmpegError) {
        var output = try OutputContext(format: "mp4", url: nil)
        let c = output.pointer
        for track in [parameters] + (sound.map { [$0] } ?? []) {
            let st = try allocated(avformat_new_stream(c, nil), "avformat_new_stream")
            try check(avcodec_parameters_copy(st.pointee.codecpar, track.pointer), "avcodec_parameters_copy")
            st.pointee.codecpar.pointee.codec_tag = 0
            st.pointee.time_base = track.timeBase.av
        }
        try output.openMemory()
        var dict: OpaquePointer? = nil
        defer { av_dict_free(&dict) }
        av_dict_set(&dict, "movflags", "empty_moov+default_base_moof+frag_custom+omit_tfhd_offset", 0)
        try check(avformat_write_header(c, &dict), "avformat_write_header(fragmented mp4)")
        initSegment = output.takeMemory()
        try output.openMemory()
        packet = try PacketOwner()
        timeBases = (0..<Int(c.pointee.nb_streams)).compactMap { c.pointee.streams[$0].map { Rational($0.pointee.time_base) } }
        hasSound = sound != nil
        streams = [.video] + (sound != nil ? [.sound(0)] : [])
        self.output = output
    }

    /// Packets as one moof + mdat fragment: the sound that came before a picture, then the
    /// picture. Each stream's packets must come in decode order; sound is left out when the
    /// muxer carries none.
    package func fragment(_ packets: [EncodedPacket]) throws(FFmpegError) -> [UInt8] {
        let c = output.pointer
        for encoded in packets {
            guard let index = streams.firstIndex(of: encoded.stream), index < timeBases.count else { continue }
            try encoded.fill(packet.pointer, rescaledTo: timeBases[index], streamIndex: Int32(index))
            let written = av_write_frame(c, packet.pointer)
            av_packet_unref(packet.pointer)
            try check(written, "av_write_frame(fragmented mp4)")
        }
        started = true
        try check(av_write_frame(c, nil), "av_write_frame(flush fragment)")
        let bytes = output.takeMemory()
        try output.openMemory()
        return bytes
    }
}
