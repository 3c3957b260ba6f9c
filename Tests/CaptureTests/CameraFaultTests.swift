@testable import Capture
import Glibc
import RecCore
import Testing
import VideoDevices
import TestPool

/// The camera's decisions (retry a reopen, treat as unplugged) are made on the errno and fault an
/// error carries, never on the words of its message or cause.
@Suite("Camera faults are classified by errno, not by text", .blocking)
struct CameraFaultTests {
    static let path = "/dev/video0"

    @Test(arguments: [EBUSY, EIO, ETIMEDOUT, EACCES, EPERM, ENOENT, EPROTO])
    func aSettlingErrnoIsTransient(errno: Int32) {
        #expect(V4L2Camera.isTransient(CameraFault.device(Self.path, "VIDIOC_S_FMT", DeviceErrno(errno)), at: Self.path))
    }

    @Test(arguments: [ENOSPC, EINVAL, ENOMEM, ENOTTY])
    func anotherErrnoIsNot(errno: Int32) {
        #expect(!V4L2Camera.isTransient(CameraFault.device(Self.path, "VIDIOC_S_FMT", DeviceErrno(errno)), at: Self.path))
        #expect(!V4L2Camera.isTransient(CameraFault.bandwidth(Self.path), at: Self.path))
    }

    @Test func theFaultsMakersCarryTheirErrno() {
        #expect(CameraFault.busy(Self.path, holders: [], cause: .busy).fault == .system(errno: EBUSY))
        #expect(CameraFault.accessDenied(Self.path).fault == .system(errno: EACCES))
        #expect(CameraFault.bandwidth(Self.path).fault == .system(errno: ENOSPC))
        #expect(CameraFault.requeue(Self.path, .io).fault == .system(errno: EIO))
        #expect(CameraFault.unplugged(Self.path).isCameraUnplugged)
        #expect(CameraFault.didNotReturn(Self.path, seconds: 5).isCameraUnplugged)
        #expect(CameraFault.watchdog(Self.path, seconds: 5).isCameraStopped)
        #expect(CameraFault.queueError(Self.path).isCameraStopped)
        #expect(CameraFault.didNotRecover(Self.path, seconds: 5, CameraFault.unplugged(Self.path)).isCameraUnplugged)
    }

    /// Text that reads like a transient failure, on an error that carries another errno (or none),
    /// decides nothing: a driver's or a translation's wording cannot turn a give-up into a retry.
    @Test func wordsAloneDecideNothing() {
        let worded = RecError.runtime("x", cause: "VIDIOC_STREAMON: Device or resource busy", location: Self.path,
                                      fault: .system(errno: ENOSPC))
        #expect(!V4L2Camera.isTransient(worded, at: Self.path))
        let unmarked = RecError.runtime("x", cause: "open: Permission denied", location: Self.path)
        #expect(!V4L2Camera.isTransient(unmarked, at: Self.path))
        #expect(!RecError.runtime("x", cause: CameraFault.unpluggedCause).isCameraUnplugged)
        #expect(!RecError.runtime("x", cause: CameraFault.stoppedCause).isCameraStopped)
    }

    @Test func anErrorAtAnotherNodeIsNotTransientThere() {
        #expect(!V4L2Camera.isTransient(CameraFault.device("/dev/video2", "open", .busy), at: Self.path))
    }
}
