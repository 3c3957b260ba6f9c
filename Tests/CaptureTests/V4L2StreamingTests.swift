@testable import Capture
import Media
import RecCore
import Testing
import VideoDevices
import TestPool

@Suite("V4L2 camera streaming through the fake driver", .blocking)
struct V4L2StreamingTests {
    static func camera(_ system: FakeV4L2System, _ size: String, _ fps: Int32, _ format: FourCC? = nil,
                       path: String = "/dev/video0") -> V4L2Camera {
        V4L2Camera(path: path, request: CameraRequest(size: FrameSize(size), frameRate: Rational(fps, 1), pixelFormat: format),
                   system: system)
    }

    static func frames(_ camera: V4L2Camera, _ count: Int) throws -> [VideoFrame] {
        try (0..<count).map { _ in try #require(try camera.nextFrame()) }
    }

    /// The frame number the fake wrote into the first 8 bytes of plane 0.
    static func number(_ frame: VideoFrame) -> UInt64 {
        UnsafeRawPointer(frame.plane(0)!.base).loadUnaligned(as: UInt64.self)
    }

    static func expectReleased(_ system: FakeV4L2System) {
        #expect(system.openDescriptors == 0)
        #expect(system.mappings.isEmpty)
        #expect(!system.calls.contains("close while streaming"))
        #expect(!system.calls.contains("close while mapped"))
        #expect(!system.calls.contains("bad munmap"))
    }

    @Test func yuyvFramesArriveInOrderWithSessionTimes() throws {
        let system = FakeV4L2System.webcam()
        let camera = Self.camera(system, "640x480", 30)
        try camera.start()
        #expect(camera.format == VideoFormat(width: 640, height: 480, pixelFormat: .yuyv422))
        #expect(camera.nominalFrameRate == Rational(30, 1))
        #expect(camera.description == "/dev/video0 (HD Pro Webcam C920) YUYV 640x480@30, BT.601 limited")
        let frames = try Self.frames(camera, 10)
        #expect(frames.map(\.sequence) == Array(0..<10))
        #expect(frames.map(Self.number) == Array(0..<10))
        #expect(frames[0].captureTime == .zero)
        let steps = zip(frames.dropFirst(), frames).map { $0.captureTime.value - $1.captureTime.value }
        #expect(steps.allSatisfy { (32_833...33_833).contains($0) }, "\(steps)")
        #expect(camera.droppedFrames == 0)
        camera.stop()
        camera.stop()
        Self.expectReleased(system)
        #expect(system.calls.suffix(2) == ["STREAMOFF", "close"])
    }

    @Test func paddedRowsAreCopiedWithoutThePadding() throws {
        let system = FakeV4L2System([(.lowRateYUYV, "/dev/video0", nil)])
        let camera = Self.camera(system, "640x480", 15)
        try camera.start()
        let frame = try #require(try camera.nextFrame())
        let plane = try #require(frame.plane(0))
        for row in [1, 5, 479] {
            #expect(plane.base[row * plane.bytesPerRow] == UInt8(row % 251))
            #expect(plane.base[row * plane.bytesPerRow + 640 * 2 - 1] == UInt8(row % 251))
        }
        camera.stop()
        Self.expectReleased(system)
    }

    @Test func nv12FramesKeepBothPlanes() throws {
        let system = FakeV4L2System([(.stepwise, "/dev/video0", nil)])
        let camera = Self.camera(system, "1280x720", 30)
        try camera.start()
        #expect(camera.format == VideoFormat(width: 1280, height: 720, pixelFormat: .nv12))
        let frames = try Self.frames(camera, 3)
        #expect(frames.map(Self.number) == [0, 1, 2])
        let chroma = try #require(frames[2].plane(1))
        #expect(chroma.base[0] == UInt8(720 % 251))
        #expect(chroma.base[chroma.bytesPerRow * 359 + 1279] == UInt8((720 + 359) % 251))
        camera.stop()
        Self.expectReleased(system)
    }

    @Test func mjpegFramesAreDecoded() throws {
        let system = FakeV4L2System.webcam()
        let camera = Self.camera(system, "1280x720", 30)
        try camera.start()
        #expect(camera.mode == CameraMode(fourcc: .mjpeg, size: FrameSize(width: 1280, height: 720), interval: Rational(1, 30)))
        #expect(camera.format == VideoFormat(width: 1280, height: 720, pixelFormat: PixelFormat(name: "yuvj422p")!))
        let frames = try Self.frames(camera, 4)
        #expect(frames.map(\.sequence) == [0, 1, 2, 3])
        #expect(frames.allSatisfy { (195...205).contains($0.plane(0)!.base[100]) })
        camera.stop()
        Self.expectReleased(system)
    }

    @Test func undecodableJPEGsAreSkippedAndCounted() throws {
        let system = FakeV4L2System.webcam(faults: FakeFaults(truncatedJPEGs: [2, 3]))
        let camera = Self.camera(system, "640x480", 30, .mjpeg)
        try camera.start()
        let frames = try Self.frames(camera, 4)
        #expect(frames.map(\.sequence) == [0, 1, 4, 5])
        #expect(camera.errorFrames == 2)
        #expect(camera.droppedFrames == 2)
    }

    @Test func aCameraWhoseJPEGsNeverDecodeTripsTheWatchdog() throws {
        let system = FakeV4L2System.webcam(faults: FakeFaults(truncatedJPEGs: Set(1..<1000)))
        let camera = Self.camera(system, "640x480", 30, .mjpeg)
        try camera.start()
        #expect(try Self.frames(camera, 1).count == 1)
        #expect(throws: RecError.runtime("no frame from /dev/video0 decoded as JPEG for 5 s; try --pixel-format YUYV", location: "/dev/video0").because(.unsupported)) {
            try camera.nextFrame()
        }
        #expect(camera.errorFrames >= 140)
    }

    @Test func mjpegBytesComeThroughForCopyPresets() throws {
        let system = FakeV4L2System.webcam()
        let camera = Self.camera(system, "640x480", 30, .mjpeg)
        try camera.start()
        let jpegs = try (0..<5).map { _ in try #require(try camera.nextCompressedFrame()) }
        #expect(jpegs.map { TestJPEG.number(in: $0.data) } == [0, 1, 2, 3, 4])
        #expect(jpegs.map(\.sequence) == [0, 1, 2, 3, 4])
        #expect(jpegs[0].captureTime == .zero && jpegs[4].captureTime > jpegs[3].captureTime)
        #expect(jpegs.allSatisfy { $0.data.prefix(2) == [0xFF, 0xD8] && $0.data.suffix(2) == [0xFF, 0xD9] })
        let packet = jpegs[2].encodedPacket(frameDuration: .microseconds(33_333))
        #expect(packet.pts == jpegs[2].captureTime.value && packet.dts == packet.pts && packet.isKeyframe)
        #expect(packet.data == jpegs[2].data && packet.timeBase == .microseconds && packet.duration == 33_333)
        camera.stop()
        Self.expectReleased(system)
    }

    @Test func compressedFramesFromARawModeIsAUsageError() throws {
        let camera = Self.camera(FakeV4L2System.webcam(), "640x480", 30)
        try camera.start()
        #expect(throws: RecError.usage("/dev/video0 delivers raw YUYV frames, not JPEG; a copy preset needs --pixel-format MJPG")) {
            try camera.nextCompressedFrame()
        }
    }

    @Test func sequenceGapsCountAsDriverDrops() throws {
        let system = FakeV4L2System.webcam(faults: FakeFaults(sequenceSkips: [3: 2, 5: 1]))
        let camera = Self.camera(system, "640x480", 30)
        try camera.start()
        let frames = try Self.frames(camera, 8)
        #expect(frames.map(\.sequence) == [0, 1, 2, 3, 6, 7, 9, 10])
        #expect(camera.sequenceGaps == 3)
        #expect(camera.droppedFrames == 3)
    }

    @Test func errorFlaggedBuffersAreDroppedAndCounted() throws {
        let system = FakeV4L2System.webcam(faults: FakeFaults(errorFrames: [2, 5]))
        let camera = Self.camera(system, "640x480", 30)
        try camera.start()
        let frames = try Self.frames(camera, 6)
        #expect(frames.map(Self.number) == [0, 1, 3, 4, 6, 7])
        #expect(frames.map(\.sequence) == [0, 1, 3, 4, 6, 7])
        #expect(camera.errorFrames == 2)
        #expect(camera.sequenceGaps == 0)
        #expect(camera.droppedFrames == 2)
    }

    @Test func interruptedCallsAreRetried() throws {
        let system = FakeV4L2System.webcam(faults: FakeFaults(interruptions: 5))
        let camera = Self.camera(system, "640x480", 30)
        try camera.start()
        #expect(try Self.frames(camera, 3).map(Self.number) == [0, 1, 2])
        #expect(system.faults.interruptions == 0)
    }

    @Test func unknownTimestampsUseOurOwnMonotonicClock() throws {
        let system = FakeV4L2System.webcam(faults: FakeFaults(unknownTimestamps: true))
        let camera = Self.camera(system, "640x480", 30)
        try camera.start()
        let frames = try Self.frames(camera, 4)
        #expect(frames[0].captureTime == .zero)
        #expect(zip(frames.dropFirst(), frames).allSatisfy { $0.captureTime.value > $1.captureTime.value + 30_000 })
    }

    @Test func stepwiseSizesSnapIntoTheRange() throws {
        let system = FakeV4L2System([(.stepwise, "/dev/video0", nil)])
        let camera = Self.camera(system, "1000x700", 25)
        try camera.start()
        #expect(camera.mode == CameraMode(fourcc: .nv12, size: FrameSize(width: 992, height: 696), interval: Rational(1, 25)))
        #expect(camera.format.width == 992)
        #expect(camera.notes.first?.hasPrefix("this camera has no 1000x700") == true)
        #expect(try camera.nextFrame()?.format.height == 696)
    }

    @Test func whatTheDriverReallySetIsReadBackAndNoted() throws {
        let system = FakeV4L2System.webcam(faults: FakeFaults(forcedSize: FrameSize(width: 640, height: 480), forcedInterval: Rational(1, 15)))
        let camera = Self.camera(system, "1280x720", 10)
        try camera.start()
        #expect(camera.mode == CameraMode(fourcc: .yuyv, size: FrameSize(width: 640, height: 480), interval: Rational(1, 15)))
        #expect(camera.format == VideoFormat(width: 640, height: 480, pixelFormat: .yuyv422))
        #expect(camera.nominalFrameRate == Rational(15, 1))
        #expect(camera.notes == ["asked for 1280x720, the driver chose 640x480", "asked for 10 fps, the driver set 15 fps"])
        #expect(try camera.nextFrame()?.format.width == 640)
    }

    @Test(arguments: [FakeFaults(noFrameRateControl: true), FakeFaults(setParmError: .invalid)])
    func camerasThatKeepTheirOwnRateStillStream(_ faults: FakeFaults) throws {
        let camera = Self.camera(FakeV4L2System.webcam(faults: faults), "640x480", 15)
        try camera.start()
        #expect(camera.notes.first?.contains("it runs at its own rate") == true, "\(camera.notes)")
        #expect(try camera.nextFrame() != nil)
    }

    @Test func droppingTheCameraWithoutStopReleasesEverything() throws {
        let system = FakeV4L2System.webcam()
        do {
            let camera = Self.camera(system, "1920x1080", 30)
            try camera.start()
            _ = try camera.nextFrame()
        }
        Self.expectReleased(system)
    }
}
