import CV4L2
import Glibc
import RecCore

/// Finds the V4L2 capture devices on this machine: the data behind `rec devices`.
public enum V4L2Discovery {
    /// Every /dev/video* node that can capture video (metadata and output-only nodes are skipped),
    /// with its stable /dev/v4l/by-id name and every format, size and frame interval it offers.
    /// Nodes that cannot be opened (busy, no permission) are skipped; `V4L2Camera` explains why
    /// when asked to open one.
    public static func cameras(system: any VideoDeviceSystem = LibV4L2System()) -> [CameraInfo] {
        let links = system.stableLinks()
        return system.videoDeviceNodes().compactMap { path in
            guard case .success(let fd) = system.openDevice(path, flags: O_RDWR | O_NONBLOCK) else { return nil }
            defer { system.close(fd) }
            let queries = V4L2Queries(system: system, fd: fd)
            guard case .success(let cap) = queries.capability(), cap.caps & CV4L2_CAP_VIDEO_CAPTURE != 0 else { return nil }
            return CameraInfo(path: path, stablePath: links.first { $0.target == path }?.link,
                              card: cap.card, driver: cap.driver, busInfo: cap.busInfo,
                              capabilities: cap.caps, formats: queries.formats())
        }
    }

    /// `cameras(system:)`, or the error `rec devices` and `rec record` print when there are none.
    public static func requireCameras(system: any VideoDeviceSystem = LibV4L2System()) throws(RecError) -> [CameraInfo] {
        let found = cameras(system: system)
        guard !found.isEmpty else { throw CameraFault.noCameras() }
        return found
    }
}
