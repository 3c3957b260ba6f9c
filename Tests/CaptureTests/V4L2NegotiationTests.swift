@testable import Capture
import RecCore
import Testing
import VideoDevices
import TestPool

@Suite("Mode negotiation", .blocking)
struct V4L2NegotiationTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var profile: String
        var size: String?
        var fps: Int32?
        var format: String?
        var expected: String
        var notes: Int
        var testDescription: String { "\(profile) \(size ?? "any")@\(fps.map(String.init) ?? "any") \(format ?? "") → \(expected)" }
    }

    static func profile(_ name: String) -> FakeProfile {
        switch name {
        case "webcam": .usbWebcam
        case "lowrate": .lowRateYUYV
        default: .stepwise
        }
    }

    static let cases: [Case] = [
        Case(profile: "webcam", size: "1920x1080", fps: 30, expected: "MJPG 1920x1080@30", notes: 0),
        Case(profile: "webcam", size: "640x480", fps: 30, expected: "YUYV 640x480@30", notes: 0),
        Case(profile: "webcam", size: "1280x720", fps: 30, expected: "MJPG 1280x720@30", notes: 0),
        Case(profile: "webcam", size: "1280x720", fps: 10, expected: "YUYV 1280x720@10", notes: 0),
        Case(profile: "webcam", size: "1280x720", fps: 5, expected: "YUYV 1280x720@5", notes: 0),
        Case(profile: "webcam", size: "1920x1080", fps: 5, expected: "YUYV 1920x1080@5", notes: 0),
        Case(profile: "webcam", size: "1920x1080", fps: 20, expected: "MJPG 1920x1080@24", notes: 1),
        Case(profile: "webcam", size: "1920x1080", fps: 30, format: "YUYV", expected: "YUYV 1920x1080@5", notes: 1),
        Case(profile: "webcam", size: "1600x900", fps: 30, expected: "MJPG 1280x720@30", notes: 1),
        Case(profile: "webcam", size: nil, fps: 30, expected: "MJPG 1920x1080@30", notes: 0),
        Case(profile: "webcam", size: nil, fps: nil, expected: "MJPG 1920x1080@30", notes: 0),
        Case(profile: "lowrate", size: "640x480", fps: 30, expected: "YUYV 640x480@15", notes: 1),
        Case(profile: "lowrate", size: "640x480", fps: 7, expected: "YUYV 640x480@7.5", notes: 1),
        Case(profile: "lowrate", size: "1280x720", fps: 15, expected: "YUYV 640x480@15", notes: 1),
        Case(profile: "lowrate", size: "100x100", fps: 15, expected: "YUYV 320x240@15", notes: 1),
        Case(profile: "stepwise", size: "1280x720", fps: 30, expected: "NV12 1280x720@30", notes: 0),
        Case(profile: "stepwise", size: "1000x700", fps: 25, expected: "NV12 992x696@25", notes: 1),
        Case(profile: "stepwise", size: "1280x720", fps: 100, expected: "NV12 1280x720@60", notes: 1),
        Case(profile: "stepwise", size: "640x480", fps: 30, format: "YUYV", expected: "YUYV 640x480@30", notes: 0),
        Case(profile: "stepwise", size: nil, fps: nil, expected: "NV12 1920x1080@60", notes: 0),
    ]

    @Test(arguments: cases)
    func choosesMode(_ c: Case) throws {
        let request = CameraRequest(size: c.size.flatMap(FrameSize.init), frameRate: c.fps.map { Rational($0, 1) },
                                    pixelFormat: c.format.flatMap(FourCC.init))
        let chosen = try ModeNegotiator.choose(request, from: Self.profile(c.profile).formats)
        #expect(chosen.mode.description == c.expected)
        #expect(chosen.notes.count == c.notes, "\(chosen.notes)")
    }

    @Test func missingSizeNamesWhatTheCameraOffers() throws {
        let chosen = try ModeNegotiator.choose(CameraRequest(size: FrameSize(width: 1600, height: 900), frameRate: Rational(30, 1)),
                                               from: FakeProfile.usbWebcam.formats)
        #expect(chosen.notes == ["this camera has no 1600x900; it offers 1920x1080, 1280x720 and 640x480 — try --size 1280x720"])
    }

    @Test func missingSizeOnARangeNamesTheRange() throws {
        let chosen = try ModeNegotiator.choose(CameraRequest(size: FrameSize(width: 1000, height: 700)), from: FakeProfile.stepwise.formats)
        #expect(chosen.notes == ["this camera has no 1000x700; it offers 64x64 to 1920x1080 in steps of 16x8 — try --size 992x696"])
    }

    @Test func exactSizeFailsWithTheSameAdvice() {
        let request = CameraRequest(size: FrameSize(width: 1920, height: 1080), frameRate: Rational(15, 1), exactSize: true)
        #expect(throws: RecError.usage("this camera has no 1920x1080; it offers 640x480 and 320x240 — try --size 640x480")) {
            try ModeNegotiator.choose(request, from: FakeProfile.lowRateYUYV.formats)
        }
    }

    @Test func unknownPixelFormatIsAUsageError() {
        #expect(throws: RecError.usage("this camera has no H264 format; it offers YUYV, MJPG — try --pixel-format YUYV")) {
            try ModeNegotiator.choose(CameraRequest(pixelFormat: .h264), from: FakeProfile.usbWebcam.formats)
        }
    }

    @Test func cameraWithOnlyUnreadableFormatsSaysSo() {
        let h264 = CameraFormat(fourcc: .h264, name: "H.264", isCompressed: true,
                                sizes: .discrete([FakeProfile.mode(1920, 1080, FakeProfile.rates(30))]))
        #expect(throws: RecError.runtime("this camera offers only H264; rec reads YUYV, NV12 and MJPEG")) {
            try ModeNegotiator.choose(CameraRequest(), from: [h264])
        }
    }

    @Test func rateNoteSaysWhatTheCameraReaches() throws {
        let chosen = try ModeNegotiator.choose(CameraRequest(size: FrameSize(width: 640, height: 480), frameRate: Rational(30, 1)),
                                               from: FakeProfile.lowRateYUYV.formats)
        #expect(chosen.notes == ["at 640x480 this camera reaches at most 15 fps, not 30; recording at 15 fps — try a smaller --size for a higher rate"])
    }

    @Test func ntscRateCountsAsReached() throws {
        let chosen = try ModeNegotiator.choose(CameraRequest(size: FrameSize(width: 640, height: 480), frameRate: Rational(30000, 1001)),
                                               from: FakeProfile.usbWebcam.formats)
        #expect(chosen.mode == CameraMode(fourcc: .yuyv, size: FrameSize(width: 640, height: 480), interval: Rational(1, 30)))
    }

    @Test func aBrokenRangeWithMinimumAboveMaximumIsAnErrorNotATrap() {
        let broken = CameraFormat(fourcc: .yuyv, name: "YUYV", isCompressed: false, sizes: .stepwise(
            min: FrameSize(width: 1920, height: 1080), max: FrameSize(width: 640, height: 480), step: FrameSize(width: 16, height: 8),
            intervals: .discrete([Rational(1, 30)])))
        #expect(throws: RecError.self) {
            try ModeNegotiator.choose(CameraRequest(size: FrameSize(width: 1280, height: 720)), from: [broken])
        }
    }
}
