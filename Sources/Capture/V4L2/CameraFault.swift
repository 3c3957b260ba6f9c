import Glibc
import RecCore
import VideoDevices

/// The errors a V4L2 camera gives the user, each saying what to try next.
package enum CameraFault {
    /// The `cause` text of the error `nextFrame()` throws when the camera went away mid-stream
    /// (ENODEV, POLLERR); test for it with `RecError.isCameraUnplugged` (its `fault`), then call
    /// `V4L2Camera.reopen`.
    package static let unpluggedCause = "ENODEV: camera unplugged"

    static func noCameras() -> RecError {
        RecError.runtime("no cameras found (no /dev/video* capture device); use --source test for the built-in stand-in camera")
            .because(.notFound)
    }

    static func busy(_ path: String, holders: [String], cause: DeviceErrno) -> RecError {
        let who = holders.isEmpty ? "another program" : holders.joined(separator: ", ")
        let hint = holders.isEmpty ? "close the other program (`fuser \(path)` shows it) and try again"
                                   : "close it and try again"
        return .runtime("\(path) is in use by \(who); \(hint)", cause: "\(cause)", location: path,
                        fault: .system(errno: cause.rawValue))
    }

    static func accessDenied(_ path: String) -> RecError {
        .runtime("no permission to open \(path); add yourself to the 'video' group: sudo usermod -aG video $USER, then log in again",
                 cause: "\(DeviceErrno.accessDenied)", location: path, fault: .system(errno: EACCES))
    }

    static func notFound(_ path: String, existing: [CameraInfo]) -> RecError {
        if existing.isEmpty {
            return RecError.usage("no such device \(path), and no camera is connected; use --source test for the built-in stand-in camera",
                                  location: path).because(.notFound)
        }
        let list = existing.map { "\($0.path) (\($0.card))" }.joined(separator: ", ")
        return RecError.usage("no such device \(path); cameras here: \(list) — see `rec devices`", location: path).because(.notFound)
    }

    static func notCapture(_ path: String) -> RecError {
        .usage("\(path) cannot capture video (it is not a camera, or it is a camera's metadata node); see `rec devices` for the capture nodes",
               location: path).because(.unsupported)
    }

    static func device(_ path: String, _ operation: String, _ error: DeviceErrno) -> RecError {
        .runtime("\(path) failed while \(operation); unplug and replug the camera, or try another --size or --fps",
                 cause: "\(operation): \(error)", location: path, fault: .system(errno: error.rawValue))
    }

    static func watchdog(_ path: String, seconds: Double) -> RecError {
        .runtime("no frame from \(path) for \(formatSeconds(seconds)) s; the camera stopped delivering frames "
                 + "(check the cable and lighting, or whether another program took it) and try again, "
                 + "or use --on-unplug wait to restart it automatically", cause: stoppedCause, location: path,
                 fault: .cameraStopped).because(.timedOut)
    }

    static func undecodable(_ path: String, seconds: Double) -> RecError {
        .runtime("no frame from \(path) decoded as JPEG for \(formatSeconds(seconds)) s; try --pixel-format YUYV", location: path)
            .because(.unsupported)
    }

    static func unplugged(_ path: String) -> RecError {
        .runtime("\(path) was unplugged (or stopped responding) while recording; plug it back in", cause: unpluggedCause,
                 location: path, fault: .cameraUnplugged)
    }

    static func didNotReturn(_ path: String, seconds: Double) -> RecError {
        .runtime("\(path) did not come back within \(formatSeconds(seconds)) s; plug it in and start again",
                 cause: unpluggedCause, location: path, fault: .cameraUnplugged)
    }

    static func didNotRecover(_ path: String, seconds: Double, _ last: RecError) -> RecError {
        .runtime("\(path) came back but could not be restarted within \(formatSeconds(seconds)) s (\(last.message)); "
                 + "replug it and start again", cause: last.cause, location: path, fault: last.fault)
    }

    /// The `cause` text of a stall or a driver queue error: the camera is there but stopped; a close
    /// and reopen usually restarts it (`--on-unplug wait` does that).
    package static let stoppedCause = "camera stopped streaming"

    static func queueError(_ path: String) -> RecError {
        .runtime("\(path) reported an error on its queue (POLLERR) and stopped delivering frames; "
                 + "try --on-unplug wait to restart it automatically, or a smaller --size", cause: stoppedCause, location: path,
                 fault: .cameraStopped)
    }

    static func bandwidth(_ path: String) -> RecError {
        .runtime("\(path) cannot start: not enough USB bandwidth for this mode (ENOSPC); try --pixel-format MJPG, "
                 + "a smaller --size or --fps, or another USB port (not a hub shared with another camera)",
                 cause: "VIDIOC_STREAMON: \(DeviceErrno(ENOSPC))", location: path, fault: .system(errno: ENOSPC))
            .because(.deviceBusy)
    }

    static func mediaController(_ path: String, driver: String, _ error: DeviceErrno) -> RecError {
        .runtime("\(path) (\(driver)) is part of a media-controller pipeline, as Raspberry Pi cameras on the libcamera stack are; "
                 + "rec cannot set it up: record with rpicam-vid (libcamera-vid), or run rec under libcamerify, "
                 + "or configure the links with media-ctl first", cause: "VIDIOC_STREAMON: \(error)", location: path,
                 fault: .system(errno: error.rawValue)).because(.unsupported)
    }

    static func requeue(_ path: String, _ error: DeviceErrno) -> RecError {
        .runtime("\(path) refused a buffer back (VIDIOC_QBUF: \(error)); the driver is in a bad state — "
                 + "try --on-unplug wait to restart it automatically, or replug the camera", cause: "VIDIOC_QBUF: \(error)",
                 location: path, fault: .system(errno: error.rawValue))
    }

    private static func formatSeconds(_ s: Double) -> String {
        s == s.rounded() ? String(Int(s)) : String(s)
    }
}

extension RecError {
    /// True for the error a camera throws when it was unplugged mid-stream.
    package var isCameraUnplugged: Bool { fault == .cameraUnplugged }
    /// True for a camera that stalled or reported a queue error: a reopen may restart it.
    package var isCameraStopped: Bool { fault == .cameraStopped }
}
