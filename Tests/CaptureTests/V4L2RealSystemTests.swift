@testable import Capture
import CV4L2
import Glibc
import RecCore
import Testing
import VideoDevices
import TestPool

/// The real seam against things every Linux machine has (no camera needed).
@Suite("libv4l2 seam on a machine without a camera", .blocking)
struct V4L2RealSystemTests {
    let system = LibV4L2System()

    @Test func openingAMissingNodeIsENOENT() {
        #expect(throws: DeviceErrno.noEntry) { try system.open("/dev/video-rec-test-missing", flags: O_RDWR).get() }
    }

    @Test func libv4l2RefusesANonVideoFileWithENOTTY() {
        #expect(throws: DeviceErrno(ENOTTY)) { try system.open("/dev/null", flags: O_RDWR | O_NONBLOCK).get() }
        let error = #expect(throws: RecError.self) { try V4L2Camera(path: "/dev/null").start() }
        #expect(error?.message == "/dev/null cannot capture video (it is not a camera, or it is a camera's metadata node); see `rec devices` for the capture nodes")
    }

    @Test func ioctlAndPollGoThroughToTheKernel() throws {
        let fd = Glibc.open("/dev/null", O_RDWR | O_NONBLOCK)
        #expect(fd >= 0)
        defer { Glibc.close(fd) }
        var cap = v4l2_capability()
        #expect(throws: DeviceErrno(ENOTTY)) { try system.control(fd, CV4L2_VIDIOC_QUERYCAP, &cap).get() }
        #expect(try system.waitReadable(fd, timeoutMilliseconds: 0).get() & Int16(POLLIN) != 0)
    }

    @Test func missingCameraPathIsAUsageErrorAtThatPath() {
        let camera = V4L2Camera(path: "/dev/video-rec-test-missing")
        let error = #expect(throws: RecError.self) { try camera.start() }
        #expect(error?.code == .usage)
        #expect(error?.location == "/dev/video-rec-test-missing")
        #expect(error?.message.hasPrefix("no such device /dev/video-rec-test-missing") == true)
    }

    @Test func nodesAreVideoNodesInNumericOrder() {
        let nodes = system.videoDeviceNodes()
        #expect(nodes.allSatisfy { $0.hasPrefix("/dev/video") })
        #expect(nodes == nodes.sorted { Int($0.dropFirst(10)) ?? 0 < Int($1.dropFirst(10)) ?? 0 })
    }

    @Test func monotonicClockMovesForward() {
        let a = system.monotonicMicroseconds()
        system.awaitDevices(milliseconds: 2, stop: Latch())
        #expect(system.monotonicMicroseconds() > a)
    }
}
