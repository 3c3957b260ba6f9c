import Foundation
@testable import Capture
import Media
import RecCore
import Testing
import VideoDevices
import TestPool

@Suite("V4L2 camera faults and their messages", .blocking)
struct V4L2FaultTests {
    typealias S = V4L2StreamingTests

    @Test func busyNamesWhoHoldsTheCamera() {
        let system = FakeV4L2System.webcam(faults: FakeFaults(openError: .busy, holders: ["cheese (pid 4242)"]))
        let camera = S.camera(system, "640x480", 30)
        #expect(throws: RecError.runtime("/dev/video0 is in use by cheese (pid 4242); close it and try again",
                                         cause: "Device or resource busy", location: "/dev/video0", fault: .system(errno: EBUSY))) {
            try camera.start()
        }
        S.expectReleased(system)
    }

    @Test func busyWhenAnotherProgramIsStreaming() throws {
        let system = FakeV4L2System.webcam()
        let first = S.camera(system, "640x480", 30)
        try first.start()
        let second = S.camera(system, "1280x720", 30)
        let error = #expect(throws: RecError.self) { try second.start() }
        #expect(error?.message == "/dev/video0 is in use by another program; close the other program (`fuser /dev/video0` shows it) and try again")
        #expect(system.openDescriptors == 1)
        #expect(try first.nextFrame() != nil)
        first.stop()
        S.expectReleased(system)
    }

    @Test func permissionDeniedSuggestsTheVideoGroup() {
        let system = FakeV4L2System.webcam(faults: FakeFaults(openError: .accessDenied))
        let error = #expect(throws: RecError.self) { try S.camera(system, "640x480", 30).start() }
        #expect(error?.message == "no permission to open /dev/video0; add yourself to the 'video' group: sudo usermod -aG video $USER, then log in again")
        #expect(error?.code == .runtime)
    }

    @Test func missingDeviceListsTheCamerasThatExist() {
        let error = #expect(throws: RecError.self) { try S.camera(FakeV4L2System.webcam(), "640x480", 30, path: "/dev/video5").start() }
        #expect(error?.message == "no such device /dev/video5; cameras here: /dev/video0 (HD Pro Webcam C920) — see `rec devices`")
        #expect(error?.code == .usage)
    }

    @Test func missingDeviceWithNoCameraSuggestsTheStandIn() {
        let error = #expect(throws: RecError.self) { try S.camera(FakeV4L2System([]), "640x480", 30).start() }
        #expect(error?.message == "no such device /dev/video0, and no camera is connected; use --source test for the built-in stand-in camera")
    }

    @Test func metadataNodeIsNotACamera() {
        let system = FakeV4L2System.webcam()
        let error = #expect(throws: RecError.self) { try S.camera(system, "640x480", 30, path: "/dev/video1").start() }
        #expect(error?.message == "/dev/video1 cannot capture video (it is not a camera, or it is a camera's metadata node); see `rec devices` for the capture nodes")
        S.expectReleased(system)
    }

    @Test func stableLinkOpensTheSameCamera() throws {
        let system = FakeV4L2System.webcam()
        let camera = S.camera(system, "640x480", 30, path: "/dev/v4l/by-id/usb-Fake_HD_Pro_Webcam_C920-video-index0")
        try camera.start()
        #expect(camera.info?.card == "HD Pro Webcam C920")
        #expect(try camera.nextFrame() != nil)
    }

    @Test func watchdogSaysNoFrameCame() throws {
        let system = FakeV4L2System.webcam(faults: FakeFaults(stallAfterFrames: 3))
        let camera = S.camera(system, "640x480", 30)
        try camera.start()
        #expect(try S.frames(camera, 3).count == 3)
        let error = #expect(throws: RecError.self) { try camera.nextFrame() }
        #expect(error?.message == "no frame from /dev/video0 for 5 s; the camera stopped delivering frames "
                + "(check the cable and lighting, or whether another program took it) and try again, "
                + "or use --on-unplug wait to restart it automatically")
        #expect(error?.isCameraUnplugged == false)
        camera.stop()
        S.expectReleased(system)
    }

    @Test func unplugIsRecognisableAndReopenContinuesTheTimeline() throws {
        let faults = FakeFaults(unplugAfterFrames: 4, reappearAfterMicroseconds: 2_000_000, reappearAs: "/dev/video2",
                                deniedOpensAfterReappear: 2)
        let system = FakeV4L2System.webcam(faults: faults)
        let camera = S.camera(system, "640x480", 30)
        try camera.start()
        let before = try S.frames(camera, 4)
        let error = #expect(throws: RecError.self) { try camera.nextFrame() }
        #expect(error?.isCameraUnplugged == true)
        #expect(error?.message == "/dev/video0 was unplugged (or stopped responding) while recording; plug it back in")
        S.expectReleased(system)

        try camera.reopen(waitingUpTo: 10)
        #expect(system.calls.filter { $0 == "open /dev/v4l/by-id/usb-Fake_HD_Pro_Webcam_C920-video-index0" }.count == 3)
        #expect(system.faults.deniedOpensAfterReappear == 0)
        let after = try S.frames(camera, 3)
        #expect(after.map(\.sequence) == [4, 5, 6])
        #expect(after.map(S.number) == [0, 1, 2])
        #expect(after[0].captureTime.value >= before[3].captureTime.value + 2_000_000)
        #expect(zip(after.dropFirst(), after).allSatisfy { $0.captureTime > $1.captureTime })
        camera.stop()
        S.expectReleased(system)
    }

    @Test func reopenGivesUpWhenTheCameraStaysAway() throws {
        let system = FakeV4L2System.webcam(faults: FakeFaults(unplugAfterFrames: 1))
        let camera = S.camera(system, "640x480", 30)
        try camera.start()
        _ = try camera.nextFrame()
        #expect(throws: RecError.self) { try camera.nextFrame() }
        let error = #expect(throws: RecError.self) { try camera.reopen(waitingUpTo: 3) }
        #expect(error?.message == "/dev/v4l/by-id/usb-Fake_HD_Pro_Webcam_C920-video-index0 did not come back within 3 s; plug it in and start again")
        S.expectReleased(system)
    }

    @Test func aStopWakesTheWaitForAnUnpluggedCameraAtOnce() throws {
        let system = FakeV4L2System.webcam(faults: FakeFaults(unplugAfterFrames: 1))
        let camera = S.camera(system, "640x480", 30)
        try camera.start()
        _ = try camera.nextFrame()
        #expect(throws: RecError.self) { try camera.nextFrame() }
        var waits = 0
        // The first wait blocks with no deadline of its own: only the stop, released from another
        // thread while it waits, can end it.
        system.onAwaitDevices = { stop in
            waits += 1
            Thread { stop.release() }.start()
            stop.wait()
        }
        let start = system.monotonicMicroseconds()
        try camera.reopen(waitingUpTo: 10, stop: Latch())
        #expect(waits == 1, "the stop ended the first wait; the camera was not looked for again")
        #expect(system.monotonicMicroseconds() - start == 250_000, "no deadline passed: the stop ended the wait")
        S.expectReleased(system)
    }

    @Test func unplugDuringMJPEGStartReleasesEverything() {
        let system = FakeV4L2System.webcam(faults: FakeFaults(unplugAfterFrames: 0))
        let error = #expect(throws: RecError.self) { try S.camera(system, "1920x1080", 30).start() }
        #expect(error?.isCameraUnplugged == true)
        S.expectReleased(system)
    }

    @Test func nextFrameBeforeStartIsAnError() {
        #expect(throws: RecError.runtime("/dev/video0 is not started; call start() first")) {
            try S.camera(FakeV4L2System.webcam(), "640x480", 30).nextFrame()
        }
    }
}
