import CFFmpeg
import RecCore

/// A demuxed packet kept as FFmpeg made it: its reference-counted buffer, shared by every
/// `EncodedPacket` copy made from it. A muxer or decoder takes another reference to the same
/// buffer (`av_packet_ref`) instead of copying the bytes, so a cut moves each payload once, from
/// the file into the muxer's packet, however long the clip.
///
/// `@unchecked Sendable`: the packet is never changed after `init`, and FFmpeg counts references
/// to its buffer atomically; the last owner to let go frees it.
final class PacketReference: SharedBytes, @unchecked Sendable {
    let packet: UnsafeMutablePointer<AVPacket>

    /// Takes over `source`'s reference (and side data), leaving `source` blank. The corresponding
    /// C functions are `av_packet_alloc` and `av_packet_move_ref`.
    init(taking source: UnsafeMutablePointer<AVPacket>) throws(FFmpegError) {
        packet = try allocated(av_packet_alloc(), "av_packet_alloc")
        av_packet_move_ref(packet, source)
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&p)
    }

    var count: Int { Int(packet.pointee.size) }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: packet.pointee.data, count: count))
    }

    /// Makes `destination` (blank) another reference to the buffer, with none of the packet's
    /// times, flags or side data: the caller sets those from its `EncodedPacket`, which may have
    /// changed them. The corresponding C function is `av_packet_ref`.
    func reference(into destination: UnsafeMutablePointer<AVPacket>) throws(FFmpegError) {
        try check(av_packet_ref(destination, packet), "av_packet_ref")
        av_packet_free_side_data(destination)
        destination.pointee.flags = 0
        destination.pointee.pos = -1
        destination.pointee.time_base = AVRational(num: 0, den: 1)
    }
}
