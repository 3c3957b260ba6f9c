import CFFmpeg
import Glibc

/// A FIFO read as a live stream. `open(2)` of a FIFO blocks until a writer comes and `read(2)`
/// blocks while it is silent, and neither can be interrupted by libavformat; so the FIFO is opened
/// without blocking and read through a custom `AVIOContext` whose reads wait in `poll(2)` on the
/// FIFO and on a stop flag's wake pipe: a stop ends a waiting read at once with `AVERROR_EXIT`.
/// The stream ends when the writer closes its end. Not seekable. Owned by one `Demuxer`, which
/// must close its format context before this goes away.
final class StreamInput {
    /// What the read callback's opaque pointer points at.
    private final class Endpoint {
        let descriptor: Int32
        let interrupt: InterruptFlag

        init(descriptor: Int32, interrupt: InterruptFlag) {
            self.descriptor = descriptor
            self.interrupt = interrupt
        }

        /// Bytes read into `buffer`, waiting for a writer and for data; `AVERROR_EOF` once the
        /// writer has closed, `AVERROR_EXIT` when stopped.
        func read(into buffer: UnsafeMutablePointer<UInt8>, size: Int) -> Int32 {
            let wake = interrupt.wakeDescriptor
            while true {
                if interrupt.isSet { return FFmpegError.exit }
                var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
                // Linux reports no POLLHUP on a FIFO before its first writer, so this waits for one.
                let r = poll(&fds, wake >= 0 ? 2 : 1, wake >= 0 ? -1 : 100)
                if r < 0 && errno != EINTR { return cffmpeg_averror(errno) }
                if interrupt.isSet { return FFmpegError.exit }
                guard r > 0, fds[0].revents != 0 else { continue }
                let n = Glibc.read(descriptor, buffer, size)
                if n > 0 { return Int32(n) }
                if n == 0 { return FFmpegError.eof }
                if errno != EAGAIN && errno != EINTR { return cffmpeg_averror(errno) }
            }
        }
    }

    private let endpoint: Endpoint
    private let io: CustomIO
    /// The I/O context to put in `AVFormatContext.pb` before `avformat_open_input`.
    var context: UnsafeMutablePointer<AVIOContext> { io.context }
    private static let bufferSize = 1 << 16

    /// Opens the FIFO for reading without waiting for a writer. The corresponding C functions are
    /// `open(2)` with `O_NONBLOCK` and `avio_alloc_context`.
    init(path: String, interrupt: InterruptFlag) throws(FFmpegError) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw FFmpegError(code: cffmpeg_averror(errno), operation: "open(\(path))") }
        let endpoint = Endpoint(descriptor: fd, interrupt: interrupt)
        do {
            io = try CustomIO(bufferSize: Self.bufferSize, opaque: Unmanaged.passUnretained(endpoint).toOpaque(), read: { opaque, buffer, size in
                guard let opaque, let buffer else { return cffmpeg_averror(EINVAL) }
                return Unmanaged<Endpoint>.fromOpaque(opaque).takeUnretainedValue().read(into: buffer, size: Int(size))
            }, seek: nil)
        } catch {
            close(fd)
            throw error
        }
        self.endpoint = endpoint
    }

    deinit { close(endpoint.descriptor) }
}
