import CaptureSetup
import Capture
import CV4L2
import Foundation
import Glibc
import RecCore
import Testing

@testable import RecCLI
@testable import RecClient
import VideoDevices
import TestPool

@Suite("rec devices and camera sources over a fake V4L2 seam", .blocking)
struct DevicesCommandTests {
    static func list(_ system: ListingSystem, json: Bool = false) throws(RecError) -> Outcome {
        let capture = ConsoleCapture()
        let status = try DevicesCommand(json: json).list(capture.console(), system: system)
        return Outcome(status: status, output: capture.output, error: capture.error)
    }

    @Test func textListsEachCameraWithItsFormats() throws {
        let outcome = try Self.list(ListingSystem())
        #expect(outcome.status == 0)
        #expect(outcome.error == "")
        #expect(outcome.output == """
            /dev/video0  Fake Cam  (uvcvideo, usb-0000:00:14.0-2)
              stable path: /dev/v4l/by-id/usb-Fake_Cam-video-index0
              YUYV  YUYV 4:2:2
                640x480  30, 15 fps
              MJPG  Motion-JPEG
                1280x720  30 fps

            """)
    }

    @Test func jsonListsTheSameForScripts() throws {
        let outcome = try Self.list(ListingSystem(), json: true)
        #expect(outcome.status == 0)
        #expect(outcome.error == "")
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        #expect(listing["microphones"] as? [[String: Any]] != nil)
        let cameras = try #require(listing["cameras"] as? [[String: Any]])
        #expect(cameras.count == 1)
        #expect(cameras.first?["path"] as? String == "/dev/video0")
        #expect(cameras.first?["stablePath"] as? String == "/dev/v4l/by-id/usb-Fake_Cam-video-index0")
        let formats = try #require(cameras.first?["formats"] as? [[String: Any]])
        #expect(formats.map { $0["fourcc"] as? String } == ["YUYV", "MJPG"])
        #expect(formats.map { $0["compressed"] as? Bool } == [false, true])
        let sizes = try #require(formats.first?["sizes"] as? [[String: Any]])
        #expect(sizes.first?["width"] as? Int == 640)
        #expect(sizes.first?["fps"] as? [Double] == [30, 15])
    }

    @Test func noCamerasIsAnEmptyListingWithTheStandInHint() throws {
        let text = try Self.list(ListingSystem(nodes: []))
        #expect(text.status == 0)
        #expect(text.output == "no cameras found (no /dev/video* capture device); use --source test for the built-in stand-in camera\n")
        let json = try Self.list(ListingSystem(nodes: []), json: true)
        #expect(json.status == 0)
        let listing = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        #expect((listing?["cameras"] as? [Any])?.isEmpty == true, "\(json.output)")
        #expect(json.error == text.output)
    }

    @Test func aCameraThatCannotBeOpenedIsAnErrorNotAnEmptyList() {
        let system = ListingSystem()
        system.openError = .accessDenied
        #expect(throws: RecError.runtime("no permission to open /dev/video0; add yourself to the 'video' group: sudo usermod -aG video $USER, then log in again",
                                         cause: "Permission denied", location: "/dev/video0", fault: .system(errno: EACCES))) {
            try Self.list(system)
        }
    }

    @Test func noSourceAndNoCameraIsAUsageErrorSuggestingTheStandIn() {
        #expect(throws: RecError.usage("no --source given and no cameras found (no /dev/video* capture device); use --source test for the built-in stand-in camera")) {
            try SourceFactory.make(.defaultCamera, size: nil, fps: nil, system: ListingSystem(nodes: []))
        }
    }

    @Test(arguments: ["/dev/video7", "v4l2:/dev/video7"])
    func aMissingCameraNamesTheOnesThatExist(_ source: String) throws {
        let spec = try SourceSpec.parse(source)
        #expect(throws: RecError.usage("no such device /dev/video7; cameras here: /dev/video0 (Fake Cam) — see `rec devices`", location: "/dev/video7").because(.notFound)) {
            try SourceFactory.make(spec, size: nil, fps: nil, system: ListingSystem())
        }
    }

    @Test(arguments: [SourceSpec.camera(path: "/dev/video0"), .camera(path: "/dev/v4l/by-id/usb-Fake_Cam-video-index0"),
                      .defaultCamera])
    func aCameraSourceIsOpenedWithTheRequestAndItsNotesAreWarnings(_ spec: SourceSpec) throws {
        let system = ListingSystem()
        var warnings: [String] = []
        let source = try SourceFactory.make(spec, size: (800, 600), fps: 30, pixelFormat: "yuyv422", system: system) {
            warnings.append($0)
        }
        let camera = try #require(source as? V4L2Camera)
        #expect(camera.request == CameraRequest(size: FrameSize(width: 800, height: 600), frameRate: Rational(30, 1), pixelFormat: .yuyv))
        #expect(system.streaming)
        #expect(camera.format.width == 640 && camera.format.height == 480)
        #expect(warnings == ["this camera has no 800x600; it offers 640x480 — try --size 640x480",
                             "asked for 30 fps, the driver set 15 fps"])
        camera.stop()
        #expect(!system.streaming)
        #expect(system.mapped.isEmpty)
    }

    @Test func pixelFormatIsOnlyForCameras() {
        #expect(throws: RecError.usage("--pixel-format YUYV applies only to cameras, not to --source test; leave it out")) {
            try SourceFactory.make(.testPattern(width: nil, height: nil, fps: nil), size: nil, fps: nil, pixelFormat: "YUYV")
        }
    }

    @Test(arguments: [("YUYV", "YUYV"), ("yuyv422", "YUYV"), ("mjpeg", "MJPG"), ("MJPG", "MJPG"), ("jpeg", "JPEG"),
                      ("nv12", "NV12"), ("h264", "H264")])
    func pixelFormatNames(_ text: String, _ fourcc: String) throws {
        #expect(try CameraFactory.fourCC(text).description == fourcc)
    }

    @Test func aPixelFormatThatIsNoFourCCIsAUsageError() {
        #expect(throws: RecError.self) { try CameraFactory.fourCC("rgb24") }
    }

    @Test func sizeRateAndFormatBecomeTheCameraRequest() throws {
        let request = try CameraFactory.request(size: (1280, 720), fps: 25, pixelFormat: "mjpeg")
        #expect(request == CameraRequest(size: FrameSize(width: 1280, height: 720), frameRate: Rational(25, 1), pixelFormat: .mjpeg))
        #expect(try CameraFactory.request(size: nil, fps: nil, pixelFormat: nil) == CameraRequest())
    }
}

/// Just enough of a V4L2 driver for listing and starting: /dev/video0, a webcam with YUYV
/// 640x480 at 30 and 15 fps and MJPG 1280x720 at 30 fps. It answers the enumeration ioctls, and
/// for YUYV takes the mode (settling on 15 fps, as a stubborn driver does), maps buffers and
/// streams on, but never fills a buffer: frames are tested against CaptureTests' full fake driver.
final class ListingSystem: VideoDeviceSystem {
    let nodes: [String]
    var openError: DeviceErrno?
    var mapped: [UnsafeMutableRawPointer] = []
    var streaming = false
    let formats: [(fourcc: FourCC, name: String, width: UInt32, height: UInt32, fps: [UInt32])] = [
        (.yuyv, "YUYV 4:2:2", 640, 480, [30, 15]),
        (.mjpeg, "Motion-JPEG", 1280, 720, [30]),
    ]

    init(nodes: [String] = ["/dev/video0"]) { self.nodes = nodes }

    func open(_ path: String, flags: Int32) -> Result<Int32, DeviceErrno> {
        if let openError { return .failure(openError) }
        let node = stableLinks().first { $0.link == path }?.target ?? path
        return nodes.contains(node) ? .success(3) : .failure(.noEntry)
    }

    func close(_ fd: Int32) {}

    func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Result<Void, DeviceErrno> {
        switch request {
        case CV4L2_VIDIOC_QUERYCAP:
            let cap = argument.assumingMemoryBound(to: v4l2_capability.self)
            cap.pointee = v4l2_capability()
            Self.fill(&cap.pointee.card, "Fake Cam")
            Self.fill(&cap.pointee.driver, "uvcvideo")
            Self.fill(&cap.pointee.bus_info, "usb-0000:00:14.0-2")
            cap.pointee.capabilities = CV4L2_CAP_VIDEO_CAPTURE | CV4L2_CAP_STREAMING
            return .success(())
        case CV4L2_VIDIOC_ENUM_FMT:
            let desc = argument.assumingMemoryBound(to: v4l2_fmtdesc.self)
            guard let format = formats.dropFirst(Int(desc.pointee.index)).first else { return .failure(.invalid) }
            desc.pointee.pixelformat = format.fourcc.rawValue
            desc.pointee.flags = format.fourcc == .mjpeg ? CV4L2_FMT_FLAG_COMPRESSED : 0
            Self.fill(&desc.pointee.description, format.name)
            return .success(())
        case CV4L2_VIDIOC_ENUM_FRAMESIZES:
            let e = argument.assumingMemoryBound(to: v4l2_frmsizeenum.self)
            guard e.pointee.index == 0, let format = formats.first(where: { $0.fourcc.rawValue == e.pointee.pixel_format })
            else { return .failure(.invalid) }
            e.pointee.type = CV4L2_FRMSIZE_TYPE_DISCRETE
            e.pointee.discrete = v4l2_frmsize_discrete(width: format.width, height: format.height)
            return .success(())
        case CV4L2_VIDIOC_ENUM_FRAMEINTERVALS:
            let e = argument.assumingMemoryBound(to: v4l2_frmivalenum.self)
            guard let format = formats.first(where: { $0.fourcc.rawValue == e.pointee.pixel_format }),
                  let fps = format.fps.dropFirst(Int(e.pointee.index)).first else { return .failure(.invalid) }
            e.pointee.type = CV4L2_FRMIVAL_TYPE_DISCRETE
            e.pointee.discrete = v4l2_fract(numerator: 1, denominator: fps)
            return .success(())
        default:
            return streamingControl(request, argument)
        }
    }

    /// S_FMT/G_FMT (always YUYV 640x480), G_PARM/S_PARM (always 1/15 s), and the buffer queue.
    private func streamingControl(_ request: UInt, _ argument: UnsafeMutableRawPointer) -> Result<Void, DeviceErrno> {
        switch request {
        case CV4L2_VIDIOC_S_FMT, CV4L2_VIDIOC_G_FMT:
            let pix = argument.assumingMemoryBound(to: v4l2_format.self)
            pix.pointee.fmt.pix.pixelformat = FourCC.yuyv.rawValue
            (pix.pointee.fmt.pix.width, pix.pointee.fmt.pix.height) = (640, 480)
            (pix.pointee.fmt.pix.bytesperline, pix.pointee.fmt.pix.sizeimage) = (1280, 1280 * 480)
        case CV4L2_VIDIOC_G_PARM, CV4L2_VIDIOC_S_PARM:
            let parm = argument.assumingMemoryBound(to: v4l2_streamparm.self)
            parm.pointee.parm.capture.capability = CV4L2_CAP_TIMEPERFRAME
            parm.pointee.parm.capture.timeperframe = v4l2_fract(numerator: 1, denominator: 15)
        case CV4L2_VIDIOC_REQBUFS: argument.assumingMemoryBound(to: v4l2_requestbuffers.self).pointee.count = 2
        case CV4L2_VIDIOC_QUERYBUF:
            let buffer = argument.assumingMemoryBound(to: v4l2_buffer.self)
            buffer.pointee.length = 1280 * 480
            buffer.pointee.m.offset = buffer.pointee.index * 4096
        case CV4L2_VIDIOC_QBUF: break
        case CV4L2_VIDIOC_STREAMON, CV4L2_VIDIOC_STREAMOFF: streaming = request == CV4L2_VIDIOC_STREAMON
        default: return .failure(DeviceErrno(ENOTTY))
        }
        return .success(())
    }

    func mmap(_ fd: Int32, length: Int, offset: Int64) -> Result<UnsafeMutableRawPointer, DeviceErrno> {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: length, alignment: 4096)
        mapped.append(memory)
        return .success(memory)
    }

    func munmap(_ address: UnsafeMutableRawPointer, length: Int) {
        mapped.removeAll { $0 == address }
        address.deallocate()
    }
    func poll(_ fd: Int32, events: Int16, timeoutMilliseconds: Int32) -> Result<Int16, DeviceErrno> { .success(0) }
    func videoDeviceNodes() -> [String] { nodes }
    func stableLinks() -> [(link: String, target: String)] {
        nodes.contains("/dev/video0") ? [("/dev/v4l/by-id/usb-Fake_Cam-video-index0", "/dev/video0")] : []
    }
    func processesHolding(_ path: String) -> [String] { [] }
    func monotonicMicroseconds() -> Int64 { 0 }
    func awaitDevices(milliseconds: Int, stop: Latch) {}

    /// Writes `text` NUL-terminated into a fixed C char array.
    static func fill<T>(_ field: inout T, _ text: String) {
        withUnsafeMutableBytes(of: &field) { bytes in
            bytes.copyBytes(from: text.utf8.prefix(bytes.count - 1) + [0])
        }
    }
}
