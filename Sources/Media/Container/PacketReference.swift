import CFFmpeg
import RecCore

/// A packet kept as FFmpeg made it (a demuxer's or an encoder's): its reference-counted buffer and
/// side data, shared by every `EncodedPacket` copy made from it. A muxer or decoder takes another
/// reference to the same buffer (`av_packet_ref`) instead of copying the bytes, so a packet's
/// payload is written where FFmpeg put it, once, however many files, viewers and clips take it.
///
/// `@unchecked Sendable`: the packet is never changed after `init`, and FFmpeg counts references
/// to its buffer atomically; the last owner to let go frees it.
final class PacketReference: SharedBytes, @unchecked Sendable {
    private let owner: PacketOwner
    var packet: UnsafePointer<AVPacket> { UnsafePointer(owner.pointer) }

    /// Takes over `source`'s reference (and side data), leaving `source` blank
    /// (`PacketOwner(movingFrom:)`).
    init(taking source: UnsafeMutablePointer<AVPacket>) throws(FFmpegError) {
        owner = try PacketOwner(movingFrom: source)
    }

    var count: Int { Int(packet.pointee.size) }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: packet.pointee.data, count: count))
    }

    /// Makes `destination` (blank) another reference to the buffer, with the packet's side data
    /// and none of its times or flags: the caller sets those from its `EncodedPacket`, which may
    /// have changed them. The corresponding C function is `av_packet_ref`.
    func reference(into destination: UnsafeMutablePointer<AVPacket>) throws(FFmpegError) {
        try check(av_packet_ref(destination, packet), "av_packet_ref")
        destination.pointee.flags = 0
        destination.pointee.pos = -1
        destination.pointee.time_base = AVRational(num: 0, den: 1)
    }
}

extension EncodedPacket {
    /// A packet that takes over `source`'s reference (`PacketReference`), leaving it blank: no
    /// byte is copied. A missing dts takes the pts and vice versa; the side data is listed in
    /// `sideData` too, for the core to read and change, but for a camera's producer reference
    /// times (`cffmpeg_packet_drop_prft`: two arrays a packet, kept a ring's length, for nothing).
    package init(taking source: UnsafeMutablePointer<AVPacket>, timeBase: Rational, streamIndex: Int) throws(FFmpegError) {
        let p = source.pointee
        let pts = p.pts == CFFMPEG_NOPTS ? p.dts : p.pts
        let dts = p.dts == CFFMPEG_NOPTS ? pts : p.dts
        if p.side_data_elems > 0 { cffmpeg_packet_drop_prft(source) }
        let sideData = PacketSideData.copied(from: source)
        self.init(shared: try PacketReference(taking: source), pts: pts, dts: dts, duration: p.duration,
                  timeBase: timeBase, isKeyframe: p.flags & AV_PKT_FLAG_KEY != 0, streamIndex: streamIndex,
                  sideData: sideData, isHidden: p.flags & AV_PKT_FLAG_DISCARD != 0)
    }

    /// Fills a blank `AVPacket` with the bytes — another reference to the buffer FFmpeg made, a
    /// buffer over the ring's slab that keeps it (`SlabBytes`), or a copy into a buffer of its own
    /// for bytes made in Swift — with the side data (`withSideData`), and the times rescaled into
    /// `target` once.
    func fill(_ p: UnsafeMutablePointer<AVPacket>, rescaledTo target: Rational, streamIndex: Int32,
              withSideData: Bool = true) throws(FFmpegError) {
        if let reference = shared as? PacketReference {
            try reference.reference(into: p)
        } else if let slab = shared as? SlabBytes {
            try Self.wrap(slab, into: p)
        } else {
            try check(av_new_packet(p, Int32(size)), "av_new_packet")
            withUnsafeBytes { src in
                if let base = src.baseAddress, let dst = p.pointee.data { UnsafeMutableRawPointer(dst).copyMemory(from: base, byteCount: src.count) }
            }
        }
        do { try placeSideData(in: p, keep: withSideData) } catch { av_packet_unref(p); throw error }
        setTimes(p, rescaledTo: target, streamIndex: streamIndex)
    }

    /// Fills a blank `AVPacket` over the packet's own bytes where they are, with no reference to
    /// them, for `body` only: what `av_write_frame` takes without a buffer reference of its own,
    /// copying whatever it keeps. Bytes FFmpeg made and the ring's slab bytes are padded as FFmpeg
    /// wants and are lent; bytes made in Swift are copied into a buffer first (`fill`). `p` is
    /// blank again afterwards.
    func lend(_ p: UnsafeMutablePointer<AVPacket>, rescaledTo target: Rational, streamIndex: Int32,
              _ body: (UnsafeMutablePointer<AVPacket>) throws(FFmpegError) -> Void) throws(FFmpegError) {
        defer { av_packet_unref(p) }
        let start: UnsafeRawPointer?
        if let reference = shared as? PacketReference {
            start = UnsafeRawPointer(reference.packet.pointee.data)
        } else if let slab = shared as? SlabBytes {
            start = slab.start
        } else {
            try fill(p, rescaledTo: target, streamIndex: streamIndex)
            return try body(p)
        }
        // `shared`, which keeps the bytes, lives as long as this packet: past `body`.
        p.pointee.data = start.map { UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: UInt8.self)) }
        p.pointee.size = Int32(size)
        if !sideData.isEmpty { try attachSideData(to: p) }
        setTimes(p, rescaledTo: target, streamIndex: streamIndex)
        try body(p)
    }

    /// The times rescaled once into `target`, the stream and the flags.
    private func setTimes(_ p: UnsafeMutablePointer<AVPacket>, rescaledTo target: Rational, streamIndex: Int32) {
        let from = timeBase.av, to = target.av
        p.pointee.pts = cffmpeg_rescale(pts, from, to)
        p.pointee.dts = cffmpeg_rescale(dts, from, to)
        p.pointee.duration = cffmpeg_rescale(duration, from, to)
        p.pointee.stream_index = streamIndex
        if isKeyframe { p.pointee.flags |= AV_PKT_FLAG_KEY }
        if isHidden { p.pointee.flags |= AV_PKT_FLAG_DISCARD }
    }

    /// Leaves the side data a reference brought when it is still `sideData` (the usual case: no
    /// copy beyond `av_packet_ref`'s), else replaces it with `sideData`; removes it all unless `keep`.
    private func placeSideData(in p: UnsafeMutablePointer<AVPacket>, keep: Bool) throws(FFmpegError) {
        if keep && PacketSideData.same(sideData, as: p) { return }
        av_packet_free_side_data(p)
        if keep { try attachSideData(to: p) }
    }

    /// A read-only buffer over `bytes` where they are (padded, as FFmpeg wants), holding a
    /// reference to them until FFmpeg lets the buffer go. The corresponding C function is
    /// `av_buffer_create`.
    private static func wrap(_ bytes: SlabBytes, into p: UnsafeMutablePointer<AVPacket>) throws(FFmpegError) {
        let held = Unmanaged.passRetained(bytes)
        let data = UnsafeMutablePointer(mutating: bytes.start.assumingMemoryBound(to: UInt8.self))
        guard let buffer = av_buffer_create(data, bytes.count + SlabWriter.padding, releaseSlab,
                                            held.toOpaque(), AV_BUFFER_FLAG_READONLY) else {
            held.release()
            throw FFmpegError(code: cffmpeg_averror(ENOMEM), operation: "av_buffer_create")
        }
        p.pointee.buf = buffer
        p.pointee.data = data
        p.pointee.size = Int32(bytes.count)
    }
}

/// `av_buffer_create`'s free callback for `wrap`: lets go of the `SlabBytes` it held.
private let releaseSlab: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?) -> Void = { opaque, _ in
    if let opaque { Unmanaged<SlabBytes>.fromOpaque(opaque).release() }
}
