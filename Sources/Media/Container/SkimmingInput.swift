import CFFmpeg
import Glibc

/// A file read for its packets' times only (`Demuxer.Reading.skimming`): an `AVIOContext` over
/// `pread(2)` that, once told where the samples of some streams lie, does not read reads that fall
/// inside them. libavformat still gets every packet with its times and flags, its payload left
/// unread (whatever the buffer held), so a cut's scan of a long MP4 costs the sample table, not
/// the gigabytes of the range. Container structure (boxes, the index, other streams' samples) is
/// always read. Owned by one `Demuxer`, which closes its format context before this goes away.
final class SkimmingInput {
    /// What the callbacks' opaque pointer points at.
    final class File {
        let descriptor: Int32
        let size: Int64
        var position: Int64 = 0
        /// Byte ranges `[start, end)` of samples not to read (runs of samples stored back to back),
        /// sorted and not overlapping.
        var skipped: [(start: Int64, end: Int64)] = []
        /// Bytes actually read from the file.
        var bytesRead: Int64 = 0

        init(descriptor: Int32, size: Int64) {
            self.descriptor = descriptor
            self.size = size
        }

        /// Whether `[start, start + count)` lies inside one skipped run of samples.
        func isSkipped(_ start: Int64, _ count: Int64) -> Bool {
            var low = 0, high = skipped.count
            while low < high {
                let mid = (low + high) / 2
                if skipped[mid].end <= start { low = mid + 1 } else { high = mid }
            }
            return low < skipped.count && skipped[low].start <= start && start + count <= skipped[low].end
        }

        func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int32 {
            guard position < size else { return FFmpegError.eof }
            let n = Int(min(Int64(count), size - position))
            if isSkipped(position, Int64(n)) {
                position += Int64(n)
                return Int32(n)
            }
            let r = pread(descriptor, buffer, n, off_t(position))
            if r < 0 { return cffmpeg_averror(errno) }
            if r == 0 { return FFmpegError.eof }
            position += Int64(r)
            bytesRead += Int64(r)
            return Int32(r)
        }

        func seek(_ offset: Int64, whence: Int32) -> Int64 {
            switch whence & ~AVSEEK_FORCE {
            case AVSEEK_SIZE: return size
            case SEEK_SET: position = offset
            case SEEK_CUR: position += offset
            case SEEK_END: position = size + offset
            default: return Int64(cffmpeg_averror(EINVAL))
            }
            return position
        }
    }

    let file: File
    private let io: CustomIO
    /// The I/O context to put in `AVFormatContext.pb` before `avformat_open_input`.
    var context: UnsafeMutablePointer<AVIOContext> { io.context }
    /// Small, so that most samples are read straight into their packet (and so skipped) rather
    /// than through the buffer.
    private static let bufferSize = 4096

    /// Opens `path` for reading. The corresponding C functions are `open(2)` and `avio_alloc_context`.
    init(path: String) throws(FFmpegError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FFmpegError(code: cffmpeg_averror(errno), operation: "open(\(path))") }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = cffmpeg_averror(errno)
            close(fd)
            throw FFmpegError(code: code, operation: "fstat(\(path))")
        }
        let file = File(descriptor: fd, size: Int64(info.st_size))
        do {
            io = try CustomIO(bufferSize: Self.bufferSize, opaque: Unmanaged.passUnretained(file).toOpaque(), read: { opaque, buffer, size in
                guard let opaque, let buffer else { return cffmpeg_averror(EINVAL) }
                return Unmanaged<File>.fromOpaque(opaque).takeUnretainedValue().read(into: buffer, count: Int(size))
            }, seek: { opaque, offset, whence in
                guard let opaque else { return Int64(cffmpeg_averror(EINVAL)) }
                return Unmanaged<File>.fromOpaque(opaque).takeUnretainedValue().seek(offset, whence: whence)
            })
        } catch {
            close(fd)
            throw error
        }
        self.file = file
    }

    deinit { close(file.descriptor) }
}
