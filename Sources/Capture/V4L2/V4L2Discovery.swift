import CV4L2
import Glibc
import RecCore
import VideoDevices

/// Finds the V4L2 capture devices on this machine: the data behind `rec devices`.
package enum V4L2Discovery {
    /// Every /dev/video* node that can capture video (metadata and output-only nodes are skipped),
    /// with its stable /dev/v4l/by-id name and every format, size and frame interval it offers.
    /// Nodes that cannot be opened (busy, no permission) are skipped; `requireCameras` and
    /// `V4L2Camera` explain why.
    package static func cameras(system: any VideoDeviceSystem = LibV4L2System()) -> [CameraInfo] {
        scan(system).cameras
    }

    /// `cameras(system:)`, or the error `rec devices` and `rec record` print when there are none:
    /// the permission advice when a node exists but could not be opened, else "no cameras found".
    package static func requireCameras(system: any VideoDeviceSystem = LibV4L2System()) throws(RecError) -> [CameraInfo] {
        let found = scan(system)
        guard found.cameras.isEmpty else { return found.cameras }
        if let denied = found.failures.first(where: { $0.errno == .accessDenied }) { throw CameraFault.accessDenied(denied.path) }
        if let busy = found.failures.first(where: { $0.errno == .busy }) {
            throw CameraFault.busy(busy.path, holders: system.processesHolding(busy.path), cause: .busy)
        }
        throw CameraFault.noCameras()
    }

    /// The capture devices, and the nodes that could not be opened with why.
    static func scan(_ system: any VideoDeviceSystem) -> (cameras: [CameraInfo], failures: [(path: String, errno: DeviceErrno)]) {
        let links = system.stableLinks()
        var failures: [(path: String, errno: DeviceErrno)] = []
        let cameras = system.videoDeviceNodes().compactMap { path -> CameraInfo? in
            let fd: Int32
            switch system.openDevice(path, flags: O_RDWR | O_NONBLOCK) {
            case .success(let opened): fd = opened
            case .failure(let e):
                failures.append((path, e))
                return nil
            }
            defer { system.close(fd) }
            let queries = V4L2Queries(system: system, fd: fd)
            guard case .success(let cap) = queries.capability(), cap.caps & CV4L2_CAP_VIDEO_CAPTURE != 0 else { return nil }
            var info = CameraInfo(path: path, stablePath: links.first { $0.target == path }?.link,
                                  card: cap.card, driver: cap.driver, busInfo: cap.busInfo,
                                  capabilities: cap.caps, formats: queries.formats())
            info.controls = V4L2Controls(system: system, fd: fd).list()
            return info
        }
        return (cameras, failures)
    }
}
