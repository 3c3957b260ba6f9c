import CFFmpeg
import Glibc
import RecCore

// One owner type for each kind of FFmpeg object rec holds: a packet, a frame, a codec context, an
// input and an output format context. Each allocates in `init` (a NULL throws), frees in `deinit`
// (never fallible I/O), and keeps its pointer to the package: no caller outside rec sees one.
// Packets, frames and format contexts are `~Copyable` (one owner, moved, never shared); a codec
// context is a `final class` owned by one thread, as the decoders and encoders that hold it are.

/// One `AVPacket`. The corresponding C functions are `av_packet_alloc` and `av_packet_free`.
package struct PacketOwner: ~Copyable {
    package let pointer: UnsafeMutablePointer<AVPacket>

    package init() throws(FFmpegError) {
        pointer = try allocated(av_packet_alloc(), "av_packet_alloc")
    }

    /// Takes over `source`'s reference and side data, leaving it blank: what a packet kept from a
    /// demuxer or encoder needs. `av_packet_move_ref` writes every field of the new packet, so it
    /// is allocated with plain `malloc` rather than `av_packet_alloc` (FFmpeg's 64-byte aligned,
    /// zeroed and defaulted allocation: ~600 instructions a packet under callgrind, against ~100);
    /// `av_packet_free` frees it with `av_free`, which is `free` on Linux.
    /// The corresponding C function is `av_packet_move_ref`.
    package init(movingFrom source: UnsafeMutablePointer<AVPacket>) throws(FFmpegError) {
        pointer = try allocated(malloc(MemoryLayout<AVPacket>.size)?.bindMemory(to: AVPacket.self, capacity: 1), "malloc(AVPacket)")
        av_packet_move_ref(pointer, source)
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&p)
    }
}

/// One `AVFrame`. The corresponding C functions are `av_frame_alloc` and `av_frame_free`.
package struct FrameOwner: ~Copyable {
    package let pointer: UnsafeMutablePointer<AVFrame>

    package init() throws(FFmpegError) {
        pointer = try allocated(av_frame_alloc(), "av_frame_alloc")
    }

    /// Takes over a frame FFmpeg made (a decoder's, a filter's).
    package init(taking frame: UnsafeMutablePointer<AVFrame>) {
        pointer = frame
    }

    deinit {
        var f: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&f)
    }
}

/// One `AVCodecContext`, for the codec it was made for; owned by one thread.
/// The corresponding C functions are `avcodec_alloc_context3` and `avcodec_free_context`.
package final class CodecContext {
    package let pointer: UnsafeMutablePointer<AVCodecContext>
    package let codec: UnsafePointer<AVCodec>

    package init(_ codec: UnsafePointer<AVCodec>) throws(FFmpegError) {
        self.codec = codec
        pointer = try allocated(avcodec_alloc_context3(codec), "avcodec_alloc_context3")
    }

    /// A decoder's context for a demuxed stream: its parameters, and the packets' time base.
    /// The corresponding C functions are `avcodec_find_decoder` and `avcodec_parameters_to_context`.
    package convenience init(decoding parameters: CodecParameters) throws(FFmpegError) {
        guard let codec = avcodec_find_decoder(parameters.pointer.pointee.codec_id) else {
            throw FFmpegError(code: cffmpeg_averror(EINVAL), operation: "avcodec_find_decoder(\(parameters.codecName))")
        }
        try self.init(codec)
        try check(avcodec_parameters_to_context(pointer, parameters.pointer), "avcodec_parameters_to_context")
        pointer.pointee.pkt_timebase = parameters.timeBase.av
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&c)
    }

    /// Opens the codec with `options`, every one of which it must know. `name` says which codec in
    /// errors. The corresponding C function is `avcodec_open2`.
    package func open(options: [(key: String, value: String)] = [], name: String) throws(FFmpegError) {
        var dict: OpaquePointer? = nil
        defer { av_dict_free(&dict) }
        for (key, value) in options { av_dict_set(&dict, key, value, 0) }
        try check(avcodec_open2(pointer, codec, &dict), "avcodec_open2(\(name))")
        if let unused = av_dict_get(dict, "", nil, AV_DICT_IGNORE_SUFFIX) {
            let key = String(cString: unused.pointee.key)
            throw FFmpegError(code: cffmpeg_averror(EINVAL), operation: "\(name) has no option '\(key)'")
        }
    }
}

/// One opened input `AVFormatContext`, and what its callbacks and custom I/O point at (`keeping`),
/// which it lets go only after the context is closed.
/// The corresponding C functions are `avformat_alloc_context`, `avformat_open_input` and
/// `avformat_close_input`.
package struct InputContext: ~Copyable {
    package let pointer: UnsafeMutablePointer<AVFormatContext>
    private let kept: [AnyObject]

    /// Opens `url` (with `format` when named, else probed). `prepare` sets fields of the blank
    /// context first: its interrupt callback, a custom `pb`.
    package init(url: String, format: UnsafePointer<AVInputFormat>? = nil, options: [(String, String)] = [],
                 name: String? = nil, keeping kept: [AnyObject] = [],
                 prepare: (UnsafeMutablePointer<AVFormatContext>) -> Void = { _ in }) throws(FFmpegError) {
        let blank = try allocated(avformat_alloc_context(), "avformat_alloc_context")
        prepare(blank)
        var dict: OpaquePointer? = nil
        defer { av_dict_free(&dict) }
        for (key, value) in options { av_dict_set(&dict, key, value, 0) }
        var ctx: UnsafeMutablePointer<AVFormatContext>? = blank
        // On failure avformat_open_input frees the context (not a custom pb: its owner, kept, does).
        try check(avformat_open_input(&ctx, url, format, &dict), "avformat_open_input(\(name ?? url))")
        pointer = try allocated(ctx, "avformat_open_input(\(name ?? url))")
        self.kept = kept
    }

    deinit {
        var c: UnsafeMutablePointer<AVFormatContext>? = pointer
        avformat_close_input(&c)
    }
}

/// One output `AVFormatContext` and its I/O: a file or network URL, a growing memory buffer, or
/// none (the format opens its own, as RTSP does). Closing the I/O is explicit (`closeIO()`, after
/// the trailer); `deinit` closes what is still open, ignoring errors, then frees the context.
/// The corresponding C functions are `avformat_alloc_output_context2`, `avio_open2`,
/// `avio_open_dyn_buf`, `avio_closep`, `avio_close_dyn_buf` and `avformat_free_context`.
package struct OutputContext: ~Copyable {
    package enum IO: Sendable { case none, url, memory }
    package let pointer: UnsafeMutablePointer<AVFormatContext>
    package private(set) var io = IO.none
    /// The interrupt flag the context's callback points at.
    private let interrupt: InterruptFlag?

    /// `format`: libavformat's short name, or nil to guess from `url`. A set `interrupt` ends any
    /// blocking call on this context (opening, writing) with `FFmpegError.exit`.
    package init(format: String?, url: String?, interrupt: InterruptFlag? = nil) throws(FFmpegError) {
        var ctx: UnsafeMutablePointer<AVFormatContext>? = nil
        try check(avformat_alloc_output_context2(&ctx, nil, format, url),
                  "avformat_alloc_output_context2(\(format ?? url ?? "?"))")
        pointer = try allocated(ctx, "avformat_alloc_output_context2")
        self.interrupt = interrupt
        if let interrupt { pointer.pointee.interrupt_callback = interrupt.callback }
    }

    deinit {
        switch io {
        case .none: break
        case .url: if pointer.pointee.pb != nil { avio_closep(&pointer.pointee.pb) }
        case .memory:
            var buffer: UnsafeMutablePointer<UInt8>? = nil
            if let pb = pointer.pointee.pb { _ = avio_close_dyn_buf(pb, &buffer) }
            av_free(buffer)
            pointer.pointee.pb = nil
        }
        avformat_free_context(pointer)
    }

    /// Whether the format writes through an I/O context at all (`AVFMT_NOFILE` clear).
    package var needsIO: Bool { pointer.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 }

    /// Opens `url` for writing, with the context's interrupt callback.
    package mutating func open(url: String) throws(FFmpegError) {
        try check(avio_open2(&pointer.pointee.pb, url, AVIO_FLAG_WRITE, &pointer.pointee.interrupt_callback, nil),
                  "avio_open2(\(url))")
        io = .url
    }

    /// Starts a memory buffer that grows as the muxer writes; `takeMemory()` ends it.
    package mutating func openMemory() throws(FFmpegError) {
        try check(avio_open_dyn_buf(&pointer.pointee.pb), "avio_open_dyn_buf")
        io = .memory
    }

    /// The bytes written since `openMemory()`, ending that buffer.
    package mutating func takeMemory() -> [UInt8] {
        guard io == .memory, let pb = pointer.pointee.pb else { return [] }
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        let size = avio_close_dyn_buf(pb, &buffer)
        pointer.pointee.pb = nil
        io = .none
        defer { av_free(buffer) }
        guard let buffer, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }

    /// Closes the I/O opened here, flushing it; the result of `avio_closep` (0 when none was open).
    package mutating func closeIO() -> Int32 {
        switch io {
        case .none: return 0
        case .memory: _ = takeMemory(); return 0
        case .url:
            io = .none
            return pointer.pointee.pb == nil ? 0 : avio_closep(&pointer.pointee.pb)
        }
    }
}
