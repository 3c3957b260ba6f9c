import CV4L2
import Glibc

/// An `errno` value from a device call: the seam reports failures as these, never as -1.
public struct DeviceErrno: Error, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32

    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    public static let interrupted = DeviceErrno(EINTR)
    public static let again = DeviceErrno(EAGAIN)
    public static let busy = DeviceErrno(EBUSY)
    public static let accessDenied = DeviceErrno(EACCES)
    public static let noEntry = DeviceErrno(ENOENT)
    public static let noDevice = DeviceErrno(ENODEV)
    public static let invalid = DeviceErrno(EINVAL)
    public static let io = DeviceErrno(EIO)

    /// `strerror`'s text, e.g. "Device or resource busy".
    public var description: String { String(cString: strerror(rawValue)) }
}

/// The system calls a V4L2 camera makes, as one small protocol (swift-system's `Syscalls.swift`
/// idea): `LibV4L2System` goes to the kernel through libv4l2, and tests plug in a fake driver.
///
/// One thread drives a seam at a time (the capture thread), so it need not be `Sendable`.
public protocol VideoDeviceSystem: AnyObject {
    /// Opens a device node; `open(2)` / `v4l2_open`.
    func open(_ path: String, flags: Int32) -> Result<Int32, DeviceErrno>
    /// Closes a descriptor from `open`; `v4l2_close`.
    func close(_ fd: Int32)
    /// One ioctl on the argument struct at `argument`; `v4l2_ioctl`. EINTR is returned, not retried.
    func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Result<Void, DeviceErrno>
    /// Maps `length` bytes at `offset` of the device, shared and read-write; `v4l2_mmap`.
    func mmap(_ fd: Int32, length: Int, offset: Int64) -> Result<UnsafeMutableRawPointer, DeviceErrno>
    /// Unmaps a region from `mmap`; `v4l2_munmap`.
    func munmap(_ address: UnsafeMutableRawPointer, length: Int)
    /// Waits up to `timeoutMilliseconds` for `events` on `fd` and returns the `revents` (0 on
    /// timeout); `poll(2)`.
    func poll(_ fd: Int32, events: Int16, timeoutMilliseconds: Int32) -> Result<Int16, DeviceErrno>
    /// The video device nodes that exist now: "/dev/video0", … in numeric order.
    func videoDeviceNodes() -> [String]
    /// Stable names from /dev/v4l/by-id: each link's path and the node it resolves to.
    func stableLinks() -> [(link: String, target: String)]
    /// Who holds `path` open, as "name (pid N)" strings, from /proc/*/fd; empty if unknown.
    func processesHolding(_ path: String) -> [String]
    /// CLOCK_MONOTONIC now, in microseconds: the clock V4L2 timestamps use.
    func monotonicMicroseconds() -> Int64
    /// Sleeps, for waiting on an unplugged camera to come back.
    func sleep(milliseconds: Int)
}

extension VideoDeviceSystem {
    /// An ioctl on a typed argument, retried while it fails with EINTR.
    func control<T>(_ fd: Int32, _ request: UInt, _ value: inout T) -> Result<Void, DeviceErrno> {
        while true {
            let result = withUnsafeMutableBytes(of: &value) { ioctl(fd, request, $0.baseAddress!) }
            if case .failure(.interrupted) = result { continue }
            return result
        }
    }

    /// `poll`, retried while it fails with EINTR.
    func waitReadable(_ fd: Int32, timeoutMilliseconds: Int32) -> Result<Int16, DeviceErrno> {
        while true {
            let result = poll(fd, events: Int16(POLLIN), timeoutMilliseconds: timeoutMilliseconds)
            if case .failure(.interrupted) = result { continue }
            return result
        }
    }

    /// `open`, retried while it fails with EINTR.
    func openDevice(_ path: String, flags: Int32) -> Result<Int32, DeviceErrno> {
        while true {
            let result = open(path, flags: flags)
            if case .failure(.interrupted) = result { continue }
            return result
        }
    }
}
