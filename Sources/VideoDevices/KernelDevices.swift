import CV4L2
import Glibc

/// `DeviceControl` straight to the kernel: open(2), ioctl(2) and close(2) with no libv4l2 between,
/// as FFmpeg's V4L2 M2M codecs make them. For questioning nodes (`M2MEncoderProbe`); cameras go
/// through libv4l2 (`LibV4L2System`), which converts their formats and knows their quirks.
package final class KernelDevices: DeviceControl, Sendable {
    /// Where the video nodes are (`DeviceNodes.directory`).
    let deviceDirectory: String

    package init(deviceDirectory: String? = nil) {
        self.deviceDirectory = DeviceNodes.directory(deviceDirectory)
    }

    package func open(_ path: String, flags: Int32) -> Result<Int32, DeviceErrno> {
        let fd = Glibc.open(path, flags | O_CLOEXEC)
        return fd < 0 ? .failure(DeviceErrno(errno)) : .success(fd)
    }

    package func close(_ fd: Int32) { _ = Glibc.close(fd) }

    /// The corresponding C function is `ioctl(2)`.
    package func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Result<Void, DeviceErrno> {
        cv4l2_kernel_ioctl(fd, request, argument) < 0 ? .failure(DeviceErrno(cv4l2_errno())) : .success(())
    }

    package func videoDeviceNodes() -> [String] { DeviceNodes.list(in: deviceDirectory) }
}
