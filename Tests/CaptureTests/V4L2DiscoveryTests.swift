@testable import Capture
import Foundation
import RecCore
import Testing
import VideoDevices
import TestPool

@Suite("Camera discovery and `rec devices` output", .blocking)
struct V4L2DiscoveryTests {
    @Test func findsCaptureNodesWithStablePathsAndSkipsMetadataNodes() {
        let system = FakeV4L2System.webcam()
        let cameras = V4L2Discovery.cameras(system: system)
        #expect(cameras.map(\.path) == ["/dev/video0"])
        #expect(cameras.first?.stablePath == "/dev/v4l/by-id/usb-Fake_HD_Pro_Webcam_C920-video-index0")
        #expect(cameras.first?.card == "HD Pro Webcam C920")
        #expect(cameras.first?.driver == "uvcvideo")
        #expect(system.openDescriptors == 0)
    }

    @Test(arguments: ["webcam", "lowrate", "stepwise"])
    func enumeratesEveryFormatSizeAndInterval(_ name: String) {
        let profile = V4L2NegotiationTests.profile(name)
        let system = FakeV4L2System([(profile, "/dev/video0", nil)])
        let cameras = V4L2Discovery.cameras(system: system)
        #expect(cameras.first?.formats == profile.formats)
    }

    @Test func noCamerasIsAnErrorThatSuggestsTheStandIn() {
        let system = FakeV4L2System([])
        system.otherNodes["/dev/video0"] = 0
        #expect(throws: RecError.runtime("no cameras found (no /dev/video* capture device); use --source test for the built-in stand-in camera").because(.notFound)) {
            try V4L2Discovery.requireCameras(system: system)
        }
    }

    @Test func unreadableNodesMeanPermissionAdviceNotNoCameras() {
        let system = FakeV4L2System.webcam(faults: FakeFaults(openError: .accessDenied))
        #expect(throws: RecError.runtime("no permission to open /dev/video0; add yourself to the 'video' group: sudo usermod -aG video $USER, then log in again",
                                         cause: "Permission denied", location: "/dev/video0", fault: .system(errno: EACCES))) {
            try V4L2Discovery.requireCameras(system: system)
        }
    }

    @Test func emulatedFormatsAreLeftOut() {
        var profile = FakeProfile.lowRateYUYV
        profile.emulated = [CameraFormat(fourcc: FourCC("RGB3")!, name: "RGB3", isCompressed: false, sizes: profile.formats[0].sizes)]
        let cameras = V4L2Discovery.cameras(system: FakeV4L2System([(profile, "/dev/video0", nil)]))
        #expect(cameras.first?.formats.map(\.fourcc.description) == ["YUYV"])
    }

    @Test func textListsFormatsSizesAndRates() {
        let text = CameraListFormatter.text(V4L2Discovery.cameras(system: FakeV4L2System.webcam()))
        #expect(text == """
            /dev/video0  HD Pro Webcam C920  (uvcvideo, usb-0000:00:14.0-1)
              stable path: /dev/v4l/by-id/usb-Fake_HD_Pro_Webcam_C920-video-index0
              YUYV  YUYV 4:2:2
                640x480    30, 15 fps
                1280x720   10, 5 fps
                1920x1080  5 fps
              MJPG  Motion-JPEG
                640x480    30, 15 fps
                1280x720   30, 15 fps
                1920x1080  30, 24, 15 fps

            """)
    }

    @Test func textShowsRanges() {
        let text = CameraListFormatter.text(V4L2Discovery.cameras(system: FakeV4L2System([(.stepwise, "/dev/video4", nil)])))
        #expect(text.contains("  NV12  Y/CbCr 4:2:0\n    64x64 to 1920x1080 in steps of 16x8  1 to 60 fps at 1920x1080\n"))
    }

    @Test func jsonParsesBackWithTheSameModes() throws {
        let json = CameraListFormatter.json(V4L2Discovery.cameras(system: FakeV4L2System.webcam()))
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(parsed.count == 1)
        #expect(parsed[0]["path"] as? String == "/dev/video0")
        #expect(parsed[0]["stablePath"] as? String == "/dev/v4l/by-id/usb-Fake_HD_Pro_Webcam_C920-video-index0")
        let formats = try #require(parsed[0]["formats"] as? [[String: Any]])
        #expect(formats.map { $0["fourcc"] as? String } == ["YUYV", "MJPG"])
        let sizes = try #require(formats[1]["sizes"] as? [[String: Any]])
        #expect(sizes.last?["width"] as? Int == 1920)
        #expect(sizes.last?["fps"] as? [Double] == [30, 24, 15])
    }

    @Test func fourccRoundTripsThroughText() {
        #expect(FourCC("MJPG") == FourCC.mjpeg)
        #expect(FourCC("YUYV") == FourCC.yuyv)
        #expect(FourCC.nv12.description == "NV12")
        #expect(FourCC("TOOLONG") == nil)
    }
}
