import Foundation
import Glibc

/// Waits on file-system events (inotify) rather than a clock: files that grow, FIFOs opened and
/// read, session logs written, a sound server's socket appearing. Shared by the test targets
/// (a library target of its own: test targets share no code). The timeouts are hang guards
/// only, never what a test asserts.
public final class FileWatch {
    private let fd: Int32
    /// Events read so far.
    public private(set) var events = 0

    /// Starts watching `paths` (files or folders) for `mask`: create it before whatever causes
    /// the events, so none is missed.
    public init(_ paths: [String], mask: UInt32 = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE)) {
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        precondition(fd >= 0, "inotify_init1: \(String(cString: strerror(errno)))")
        for path in paths { _ = inotify_add_watch(fd, path, mask) }
    }

    deinit { close(fd) }

    /// Checks `condition` now and after each batch of events, until it holds (true) or `timeout`
    /// seconds pass (false).
    public func wait(timeout: Double = 60, until condition: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now + .seconds(timeout)
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            if try condition() { return true }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            guard poll(&entry, 1, ms) > 0 else { continue }
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                guard n > 0 else { break }
                var offset = 0
                while offset < n {
                    let length = buffer.withUnsafeBytes { $0.load(fromByteOffset: offset + 12, as: UInt32.self) }
                    offset += 16 + Int(length)
                    events += 1
                }
            }
        }
    }
}
