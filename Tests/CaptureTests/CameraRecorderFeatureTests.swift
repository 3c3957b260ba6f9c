@testable import Capture
import Foundation
import Media
import RecCore
import Session
import Testing
import VideoDevices
import TestPool

/// The recorder features that exist for cameras: MJPEG stored as it comes (`copy` presets) and
/// waiting for an unplugged camera to return (`--on-unplug wait`), on the fake driver.
@Suite(.blocking) struct CameraRecorderFeatureTests {
    static func temp(_ ext: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("camera-feature-\(UUID().uuidString).\(ext)").path
    }

    @Test func copyPresetStoresTheCamerasJPEGsWithoutEncoding() throws {
        let path = Self.temp("mkv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let copy = EncoderSettings(encoder: "copy", width: 0, height: 0, pixelFormat: .none)
        let configuration = RecorderConfiguration(encoder: copy, output: .init(path: path, container: .mkv), pace: .off, frameLimit: 10)
        let request = CameraRequest(size: FrameSize(width: 1280, height: 720), frameRate: Rational(30, 1), pixelFormat: .mjpeg)
        let recorder = Recorder(source: V4L2Camera(path: "/dev/video0", request: request, system: FakeV4L2System.webcam()),
                                configuration: configuration)
        #expect(recorder.waitUntilFinished(seconds: 60))
        let stats = recorder.currentStats
        #expect(stats.state == .finished, "\(stats.lastError ?? "")")
        #expect(stats.framesCaptured == 10)
        #expect(stats.mode.contains("stored as it comes"))
        let report = try FrameReader.read(path: path)
        #expect(report.codecName == "mjpeg")
        #expect(report.frames.count == 10)
        #expect(report.packetKeyframes.allSatisfy { $0 })
        let steps = zip(report.frames.dropFirst(), report.frames).map { $0.time.seconds - $1.time.seconds }
        #expect(steps.allSatisfy { (0.032...0.035).contains($0) }, "\(steps)")
    }

    @Test func copyPresetNeedsAnMJPEGMode() throws {
        let copy = EncoderSettings(encoder: "copy", width: 0, height: 0, pixelFormat: .none)
        let configuration = RecorderConfiguration(encoder: copy, output: nil, pace: .off, frameLimit: 5)
        let request = CameraRequest(size: FrameSize(width: 640, height: 480), frameRate: Rational(30, 1), pixelFormat: .yuyv)
        let recorder = Recorder(source: V4L2Camera(path: "/dev/video0", request: request, system: FakeV4L2System.webcam()),
                                configuration: configuration)
        let error = #expect(throws: RecError.self) { try recorder.waitUntilStarted() }
        #expect(error?.code == .usage)
        #expect(error?.message.contains("--pixel-format MJPG") == true)
    }

    @Test func unpluggedCameraIsWaitedForAndTheTimelineGoesOn() throws {
        let path = Self.temp("mp4")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let faults = FakeFaults(unplugAfterFrames: 5, reappearAfterMicroseconds: 2_000_000)
        var configuration = RecorderConfiguration(
            encoder: EncoderSettings(encoder: "libx264", width: 0, height: 0, pixelFormat: .yuv420p, speed: "veryfast"),
            output: .init(path: path, container: .mp4), pace: .off, frameLimit: 12)
        configuration.onUnplug = .wait(seconds: 10)
        let request = CameraRequest(size: FrameSize(width: 640, height: 480), frameRate: Rational(30, 1), pixelFormat: .yuyv)
        let recorder = Recorder(source: V4L2Camera(path: "/dev/video0", request: request,
                                                   system: FakeV4L2System.webcam(faults: faults)),
                                configuration: configuration)
        #expect(recorder.waitUntilFinished(seconds: 60))
        let stats = recorder.currentStats
        #expect(stats.state == .finished, "\(stats.lastError ?? "")")
        #expect(stats.gaps == 1)
        #expect(stats.framesCaptured == 12)
        let report = try FrameReader.read(path: path)
        #expect(report.frames.count == 12)
        // Frames 0–4, then a gap of about two seconds, then the rest on the same timeline.
        let steps = zip(report.frames.dropFirst(), report.frames).map { $0.time.seconds - $1.time.seconds }
        #expect(steps[4] >= 2.0)
        #expect(steps.enumerated().filter { $0.offset != 4 }.allSatisfy { $0.element < 0.05 })
    }
}
