import Foundation

/// The kernel's name for the calling thread (what top -H, ps -L and /proc/PID/task/TID/comm show).
/// Foundation keeps `Thread.name` to itself on Linux, and glibc's `pthread_setname_np` is not in
/// Swift's Glibc module; the kernel takes the name written to /proc/thread-self/comm.
package enum ThreadName {
    /// Names the calling thread; at most 15 bytes are kept. Does nothing where /proc is missing.
    package static func set(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
