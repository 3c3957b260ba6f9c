import CV4L2
import Foundation
import Glibc
import RecCore
import VideoDevices

/// The real seam: libv4l2 (which converts exotic formats and works around driver quirks) for
/// the device calls, the file system for /dev and /proc.
package final class LibV4L2System: VideoDeviceSystem, Sendable {
    /// Where the video nodes are (`DeviceNodes.directory`).
    let deviceDirectory: String

    package init(deviceDirectory: String? = nil) {
        self.deviceDirectory = DeviceNodes.directory(deviceDirectory)
    }

    /// The corresponding C functions are `open` and `v4l2_fd_open` (conversion off; see shim.h).
    package func open(_ path: String, flags: Int32) -> Result<Int32, DeviceErrno> {
        let fd = cv4l2_open(path, flags | O_CLOEXEC)
        return fd < 0 ? .failure(DeviceErrno(cv4l2_errno())) : .success(fd)
    }

    /// The corresponding C function is `v4l2_close`.
    package func close(_ fd: Int32) { _ = cv4l2_close(fd) }

    /// The corresponding C function is `v4l2_ioctl`.
    package func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Result<Void, DeviceErrno> {
        cv4l2_ioctl(fd, request, argument) < 0 ? .failure(DeviceErrno(cv4l2_errno())) : .success(())
    }

    /// The corresponding C function is `v4l2_mmap`.
    package func mmap(_ fd: Int32, length: Int, offset: Int64) -> Result<UnsafeMutableRawPointer, DeviceErrno> {
        let address = cv4l2_mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset)
        guard let address, address != CV4L2_MAP_FAILED else { return .failure(DeviceErrno(cv4l2_errno())) }
        return .success(address)
    }

    /// The corresponding C function is `v4l2_munmap`.
    package func munmap(_ address: UnsafeMutableRawPointer, length: Int) { _ = cv4l2_munmap(address, length) }

    /// The corresponding C function is `poll`.
    package func poll(_ fd: Int32, events: Int16, timeoutMilliseconds: Int32) -> Result<Int16, DeviceErrno> {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        let n = Glibc.poll(&entry, 1, timeoutMilliseconds)
        if n < 0 { return .failure(DeviceErrno(errno)) }
        return .success(n == 0 ? 0 : entry.revents)
    }

    package func videoDeviceNodes() -> [String] { DeviceNodes.list(in: deviceDirectory) }

    package func stableLinks() -> [(link: String, target: String)] {
        let directory = deviceDirectory + "/v4l/by-id"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.sorted().compactMap { name in
            let link = directory + "/" + name
            guard let resolved = realpath(link, nil) else { return nil }
            defer { free(resolved) }
            return (link, String(cString: resolved))
        }
    }

    package func processesHolding(_ path: String) -> [String] {
        let me = getpid()
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }
        return pids.filter { $0 != me }.compactMap { pid in
            let fdDirectory = "/proc/\(pid)/fd"
            guard let fds = try? FileManager.default.contentsOfDirectory(atPath: fdDirectory) else { return nil }
            let holds = fds.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: fdDirectory + "/" + $0)) == path }
            guard holds else { return nil }
            let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            return "\(name) (pid \(pid))"
        }
    }

    package func monotonicMicroseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000
    }

    package func awaitDevices(milliseconds: Int, stop: Latch) { stop.wait(until: .after(Double(milliseconds) / 1_000)) }
}
