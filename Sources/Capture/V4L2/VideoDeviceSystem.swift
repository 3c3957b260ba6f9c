import CV4L2
import Glibc
import RecCore
import VideoDevices

/// The system calls a V4L2 camera makes, as one small protocol (swift-system's `Syscalls.swift`
/// idea): `LibV4L2System` goes to the kernel through libv4l2, and tests plug in a fake driver.
///
/// One thread drives a seam at a time (the capture thread), so it need not be `Sendable`.
package protocol VideoDeviceSystem: DeviceControl {
    /// Maps `length` bytes at `offset` of the device, shared and read-write; `v4l2_mmap`.
    func mmap(_ fd: Int32, length: Int, offset: Int64) -> Result<UnsafeMutableRawPointer, DeviceErrno>
    /// Unmaps a region from `mmap`; `v4l2_munmap`.
    func munmap(_ address: UnsafeMutableRawPointer, length: Int)
    /// Waits up to `timeoutMilliseconds` for `events` on `fd` and returns the `revents` (0 on
    /// timeout); `poll(2)`.
    func poll(_ fd: Int32, events: Int16, timeoutMilliseconds: Int32) -> Result<Int16, DeviceErrno>
    /// Stable names from /dev/v4l/by-id: each link's path and the node it resolves to.
    func stableLinks() -> [(link: String, target: String)]
    /// Who holds `path` open, as "name (pid N)" strings, from /proc/*/fd; empty if unknown.
    func processesHolding(_ path: String) -> [String]
    /// CLOCK_MONOTONIC now, in microseconds: the clock V4L2 timestamps use.
    func monotonicMicroseconds() -> Int64
    /// Waits up to `milliseconds` before the next look for an unplugged camera, returning at once
    /// when `stop` is released.
    func awaitDevices(milliseconds: Int, stop: Latch)
}

extension VideoDeviceSystem {
    /// `poll`, retried while it fails with EINTR.
    func waitReadable(_ fd: Int32, timeoutMilliseconds: Int32) -> Result<Int16, DeviceErrno> {
        retryingInterrupted { poll(fd, events: Int16(POLLIN), timeoutMilliseconds: timeoutMilliseconds) }
    }
}
