import CV4L2
import Glibc

/// An `errno` value from a device call: the seam reports failures as these, never as -1.
package struct DeviceErrno: Error, Hashable, Sendable, CustomStringConvertible {
    package var rawValue: Int32

    package init(_ rawValue: Int32) { self.rawValue = rawValue }

    package static let interrupted = DeviceErrno(EINTR)
    package static let again = DeviceErrno(EAGAIN)
    package static let busy = DeviceErrno(EBUSY)
    package static let accessDenied = DeviceErrno(EACCES)
    package static let noEntry = DeviceErrno(ENOENT)
    package static let noDevice = DeviceErrno(ENODEV)
    package static let invalid = DeviceErrno(EINVAL)
    package static let io = DeviceErrno(EIO)

    /// `strerror`'s text, e.g. "Device or resource busy".
    package var description: String { String(cString: strerror(rawValue)) }
}

/// The device calls that find and question a V4L2 node, the part of a device seam that needs no
/// streaming: what `M2MEncoderProbe` uses. `VideoDeviceSystem` (Capture) adds mapping, polling and
/// the rest a camera needs; `KernelDevices` makes these calls straight to the kernel.
package protocol DeviceControl: AnyObject {
    /// Opens a device node; `open(2)` / `v4l2_open`.
    func open(_ path: String, flags: Int32) -> Result<Int32, DeviceErrno>
    /// Closes a descriptor from `open`; `v4l2_close`.
    func close(_ fd: Int32)
    /// One ioctl on the argument struct at `argument`; `v4l2_ioctl`. EINTR is returned, not retried.
    func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Result<Void, DeviceErrno>
    /// The video device nodes that exist now: "/dev/video0", … in numeric order.
    func videoDeviceNodes() -> [String]
}

extension DeviceControl {
    /// An ioctl on a typed argument, retried while it fails with EINTR.
    package func control<T>(_ fd: Int32, _ request: UInt, _ value: inout T) -> Result<Void, DeviceErrno> {
        retryingInterrupted { withUnsafeMutablePointer(to: &value) { ioctl(fd, request, UnsafeMutableRawPointer($0)) } }
    }

    /// `VIDIOC_QUERYCAP`: card, driver, bus and the node's own capabilities (`device_caps` where
    /// the driver reports them, else those of the whole device).
    package func capability(_ fd: Int32) -> Result<DeviceCapability, DeviceErrno> {
        var cap = v4l2_capability()
        return control(fd, CV4L2_VIDIOC_QUERYCAP, &cap).map {
            let caps = cap.capabilities & CV4L2_CAP_DEVICE_CAPS != 0 ? cap.device_caps : cap.capabilities
            return DeviceCapability(card: cString(cap.card), driver: cString(cap.driver), busInfo: cString(cap.bus_info), caps: caps)
        }
    }

    /// `open`, retried while it fails with EINTR.
    package func openDevice(_ path: String, flags: Int32) -> Result<Int32, DeviceErrno> {
        retryingInterrupted { open(path, flags: flags) }
    }
}

/// Runs `call` again for as long as it fails with EINTR (a signal arrived mid-call).
package func retryingInterrupted<T>(_ call: () -> Result<T, DeviceErrno>) -> Result<T, DeviceErrno> {
    while true {
        let result = call()
        if case .failure(.interrupted) = result { continue }
        return result
    }
}

/// The video nodes in a folder: `video<N>` entries, in numeric order.
package enum DeviceNodes {
    /// Where the video nodes are: /dev, or `REC_DEVICE_DIR` (the fake-kernel tests point it at a
    /// folder of stand-in nodes that their LD_PRELOAD driver claims).
    package static func directory(_ given: String? = nil) -> String {
        given ?? getenv("REC_DEVICE_DIR").map { String(cString: $0) } ?? "/dev"
    }

    package static func list(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var nodes: [(Int, String)] = []
        while let entry = readdir(dir) {
            let name = cString(entry.pointee.d_name)
            if name.hasPrefix("video"), let n = Int(name.dropFirst(5)) { nodes.append((n, directory + "/" + name)) }
        }
        return nodes.sorted { $0.0 < $1.0 }.map(\.1)
    }
}

/// What `VIDIOC_QUERYCAP` says of a node.
package struct DeviceCapability: Sendable {
    package var card: String
    package var driver: String
    package var busInfo: String
    /// The node's own capabilities (`V4L2_CAP_*`).
    package var caps: UInt32
}

/// A fixed-size C char array (a tuple in Swift) up to its first NUL.
package func cString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}
