import Foundation
import Glibc
import RecCore

/// The reading end of a FIFO, opened before anything writes to it: `readToEnd` returns what a
/// writer wrote once it closes its end, waking on the writer (`poll`), never on a clock.
final class FIFOReader {
    private let fd: Int32

    /// Opens `path`'s reading end without waiting for a writer.
    init(path: String) throws {
        fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    deinit { close(fd) }

    /// Everything written until the last writer closes; nil if that does not happen by `deadline`.
    /// Linux reports no hang-up on a FIFO that has never had a writer, so `poll` waits for one.
    func readToEnd(until deadline: Latch.Deadline) -> String? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let left: Int32
            switch deadline {
            case .never: left = -1
            case .at(let time):
                let now = DispatchTime.now()
                guard time > now else { return nil }
                left = Int32(min(Int64(Int32.max), Int64((time.uptimeNanoseconds - now.uptimeNanoseconds) / 1_000_000) + 1))
            }
            let ready = poll(&entry, 1, left)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return nil }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            if n <= 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes += buffer[..<n]
        }
    }
}
