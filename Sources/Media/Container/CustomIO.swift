import CFFmpeg

/// An `AVIOContext` that reads through callbacks (a FIFO that waits in poll, a file that skims),
/// with the buffer it owns. For `AVFormatContext.pb` before `avformat_open_input`; the format
/// context must be closed before this goes away.
final class CustomIO {
    typealias Read = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32
    typealias Seek = @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64

    let context: UnsafeMutablePointer<AVIOContext>

    /// `opaque` is handed to the callbacks; the caller keeps what it points at alive. The
    /// corresponding C function is `avio_alloc_context`.
    init(bufferSize: Int, opaque: UnsafeMutableRawPointer, read: Read, seek: Seek?) throws(FFmpegError) {
        guard let buffer = av_malloc(bufferSize)?.assumingMemoryBound(to: UInt8.self) else {
            throw FFmpegError(code: cffmpeg_averror(ENOMEM), operation: "av_malloc")
        }
        guard let context = avio_alloc_context(buffer, Int32(bufferSize), 0, opaque, read, nil, seek) else {
            var b: UnsafeMutableRawPointer? = UnsafeMutableRawPointer(buffer)
            av_freep(&b)
            throw FFmpegError(code: cffmpeg_averror(ENOMEM), operation: "avio_alloc_context")
        }
        self.context = context
    }

    deinit {
        // libavformat may have replaced the buffer (probing grows it), so free the context's own.
        av_freep(&context.pointee.buffer)
        var c: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&c)
    }
}
