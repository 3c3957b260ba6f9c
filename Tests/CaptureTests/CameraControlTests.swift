@testable import Capture
import Foundation
import Media
import RecCore
import Session
import Testing
import TestPool

/// Camera controls through the syscall seam, on the fake driver's UVC-like control table.
@Suite(.blocking) struct CameraControlTests {
    static func camera(_ settings: [String] = [], system: FakeV4L2System = .webcam(.webcamWithControls)) throws -> V4L2Camera {
        let camera = V4L2Camera(path: "/dev/video0", request: CameraRequest(size: FrameSize(width: 640, height: 480), pixelFormat: .yuyv),
                                system: system)
        for text in settings { camera.controlSettings.append(try ControlSetting.parse(text)) }
        return camera
    }

    @Test func discoveryListsControlsWithRangesMenusAndStates() throws {
        let info = try #require(V4L2Discovery.cameras(system: FakeV4L2System.webcam(.webcamWithControls)).first)
        #expect(info.controls.map(\.name) == ["brightness", "contrast", "white_balance_automatic", "power_line_frequency",
                                              "white_balance_temperature", "auto_exposure", "exposure_time_absolute",
                                              "focus_absolute", "focus_automatic_continuous", "privacy"])
        let exposure = try #require(info.controls.first { $0.name == "auto_exposure" })
        #expect(exposure.menu.map(\.name) == ["Manual Mode", "Aperture Priority Mode"])
        #expect(exposure.value == 3)
        #expect(info.controls.first { $0.name == "exposure_time_absolute" }?.flags.contains(.inactive) == true)
        #expect(info.controls.first { $0.name == "privacy" }?.flags.contains(.readOnly) == true)
        let text = CameraListFormatter.text([info])
        #expect(text.contains("    exposure_time_absolute      int     min=3 max=2047 step=1 default=250 value=250  (inactive)"), "\(text)")
        #expect(text.contains("        3: Aperture Priority Mode"))
        let json = CameraListFormatter.json([info])
        #expect(json.contains("\"valueName\" : \"Aperture Priority Mode\""), "\(json)")
    }

    @Test func aCameraWithoutControlsListsNone() throws {
        let info = try #require(V4L2Discovery.cameras(system: FakeV4L2System.webcam()).first)
        #expect(info.controls.isEmpty)
        #expect(!CameraListFormatter.text([info]).contains("controls:"))
        #expect(!CameraListFormatter.json([info]).contains("controls"))
    }

    @Test func settingsApplyAtStartAutoControlsFirst() throws {
        let system = FakeV4L2System.webcam(.webcamWithControls)
        let camera = try Self.camera(["exposure_time_absolute=500", "auto_exposure=manual", "brightness=10"], system: system)
        try camera.start()
        defer { camera.stop() }
        #expect(system.calls.filter { $0.hasPrefix("S_CTRL") } == ["S_CTRL auto_exposure=1", "S_CTRL exposure_time_absolute=500",
                                                                   "S_CTRL brightness=10"])
        let now = try camera.cameraControls()
        #expect(now.first { $0.name == "exposure_time_absolute" }?.value == 500)
        #expect(now.first { $0.name == "exposure_time_absolute" }?.flags.contains(.inactive) == false)
    }

    @Test func aManualValueUnderAnAutoControlSaysHowToFreeIt() throws {
        let system = FakeV4L2System.webcam(.webcamWithControls)
        let camera = try Self.camera(["exposure_time_absolute=500"], system: system)
        let error = #expect(throws: RecError.self) { try camera.start() }
        #expect(error?.code == .usage)
        #expect(error?.message == "exposure_time_absolute is inactive while auto_exposure is 'Aperture Priority Mode'; add --control auto_exposure=manual")
        #expect(system.openDescriptors == 0)
        #expect(!system.calls.contains { $0.hasPrefix("S_CTRL") })
    }

    @Test func badNamesAndValuesFailBeforeAnythingIsSet() throws {
        let system = FakeV4L2System.webcam(.webcamWithControls)
        let error = #expect(throws: RecError.self) { try Self.camera(["brightness=10", "focus_absolute=300"], system: system).start() }
        #expect(error?.message.contains("takes 0 to 250 in steps of 5") == true, "\(error?.message ?? "")")
        #expect(!system.calls.contains { $0.hasPrefix("S_CTRL") })
        let unknown = #expect(throws: RecError.self) { try Self.camera(["exposur_time_absolute=1"]).start() }
        #expect(unknown?.message.contains("did you mean exposure_time_absolute?") == true, "\(unknown?.message ?? "")")
    }

    @Test func liveChangesAreRememberedForAReopen() throws {
        let system = FakeV4L2System.webcam(.webcamWithControls)
        let camera = try Self.camera(system: system)
        try camera.start()
        let set = try camera.applyControls([ControlSetting(name: "focus_automatic_continuous", value: "off"),
                                            ControlSetting(name: "focus_absolute", value: "50")], hint: "")
        #expect(set.map(\.name) == ["focus_automatic_continuous", "focus_absolute"])
        #expect(set.map(\.value) == [0, 50])
        #expect(camera.controlSettings.map(\.description) == ["focus_automatic_continuous=off", "focus_absolute=50"])
        camera.stop()
        system.cameras[0].controls = FakeControl.webcamTable // a replug resets the hardware
        try camera.start()
        defer { camera.stop() }
        #expect(try camera.cameraControls().first { $0.name == "focus_absolute" }?.value == 50)
    }

    @Test func aSessionAppliesControlsOnItsCaptureThread() throws {
        FFmpegLog.quiet()
        let encoder = EncoderSettings(encoder: "mjpeg", width: 0, height: 0, pixelFormat: .yuvj422p, rateControl: .qscale(5))
        let configuration = SessionConfiguration(name: "controls", recorder: RecorderConfiguration(encoder: encoder, output: nil, pace: .realtime))
        let host = SessionHost(configuration: configuration, source: try Self.camera())
        try host.recorder.waitUntilStarted()
        defer { _ = host.stop() }
        let request = ControlRequest(id: .number(1), command: .control(CameraControlRequest(settings: [
            ControlSetting(name: "exposure_time_absolute", value: "800"), ControlSetting(name: "auto_exposure", value: "manual"),
        ])))
        guard case .ok(.control(let report)) = host.handle(request) else { Issue.record("\(host.handle(request))"); return }
        #expect(report.controls.map(\.name) == ["auto_exposure", "exposure_time_absolute"])
        #expect(report.controls.map(\.value) == [1, 800])
        guard case .ok(.control(let listing)) = host.handle(ControlRequest(id: .number(2), command: .control(CameraControlRequest()))) else {
            Issue.record("listing failed"); return
        }
        #expect(listing.controls.count == 10)
        guard case .error(let error) = host.handle(ControlRequest(id: .number(3), command: .control(CameraControlRequest(settings: [
            ControlSetting(name: "white_balance_temperature", value: "5000")])))) else { Issue.record("no error"); return }
        #expect(error.message == "white_balance_temperature is inactive while white_balance_automatic is 'true'; add white_balance_automatic=false")
    }

    @Test func aSessionWithoutACameraSaysSo() throws {
        let encoder = EncoderSettings(encoder: "mjpeg", width: 0, height: 0, pixelFormat: .yuvj422p, rateControl: .qscale(5))
        let configuration = SessionConfiguration(name: "nocam", recorder: RecorderConfiguration(encoder: encoder, output: nil, pace: .realtime))
        let host = SessionHost(configuration: configuration, source: TestPatternSource(width: 160, height: 120, fps: 30))
        try host.recorder.waitUntilStarted()
        defer { _ = host.stop() }
        guard case .error(let error) = host.handle(ControlRequest(id: .number(1), command: .control(CameraControlRequest()))) else {
            Issue.record("no error"); return
        }
        #expect(error.code == .usage)
        #expect(error.message.contains("has no camera controls"), "\(error.message)")
    }
}
