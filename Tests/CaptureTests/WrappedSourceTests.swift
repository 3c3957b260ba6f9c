@testable import Capture
import Foundation
import Media
import RecCore
import Session
import Synchronization
import Testing
import VideoDevices
import TestPool

/// A source that wraps another keeps what the inner source can do: the camera's clock (the sound
/// joins the pictures' timeline there), its reconnect (`--on-unplug wait`) and its MJPEG (`copy`
/// presets). The recorder asks the source's `capabilities`; it once cast the source to the
/// camera's protocols, and a wrapper, being none of them, silently lost all three.
@Suite(.blocking) struct WrappedSourceTests {
    /// Passes every frame through, as a filter or a test double does.
    final class PassThroughSource: FrameSource {
        let inner: FrameSource
        init(_ inner: FrameSource) { self.inner = inner }
        var format: VideoFormat { inner.format }
        var nominalFrameRate: Rational? { inner.nominalFrameRate }
        var description: String { "passed through \(inner.description)" }
        var droppedFrames: Int { inner.droppedFrames }
        var capabilities: SourceCapabilities { inner.capabilities }
        func start() throws(RecError) { try inner.start() }
        func nextFrame() throws(RecError) -> VideoFrame? { try inner.nextFrame() }
        func stop() { inner.stop() }
    }

    final class Noted: Sendable {
        let epoch = Mutex<UInt64?>(nil)
    }

    /// The stand-in tone, noting the session's time 0 it is started with.
    final class EpochNotingTone: AudioSource {
        let tone = TestToneSource()
        let noted: Noted
        init(_ noted: Noted) { self.noted = noted }
        var description: String { tone.description }
        var format: AudioFormat { tone.format }
        var overruns: Int { 0 }
        var isLive: Bool { false }
        var settling: ClosedRange<Double> { 0...0 }
        func start(epoch: UInt64) throws(RecError) {
            noted.epoch.withLock { $0 = epoch }
            try tone.start(epoch: epoch)
        }
        func nextChunk() throws(RecError) -> AudioFrame? { try tone.nextChunk() }
        func stop() { tone.stop() }
    }

    static func temp(_ ext: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("wrapped-source-\(UUID().uuidString).\(ext)").path
    }

    static let x264 = EncoderSettings(encoder: "libx264", width: 0, height: 0, pixelFormat: .yuv420p, speed: "veryfast")

    static func camera(_ pixelFormat: FourCC = .yuyv, size: FrameSize = FrameSize(width: 640, height: 480),
                       faults: FakeFaults = FakeFaults()) -> FrameSource {
        let request = CameraRequest(size: size, frameRate: Rational(30, 1), pixelFormat: pixelFormat)
        return PassThroughSource(V4L2Camera(path: "/dev/video0", request: request, system: FakeV4L2System.webcam(faults: faults)))
    }

    @Test func theSoundIsTimedFromTheWrappedCamerasClock() throws {
        let path = Self.temp("mkv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let noted = Noted()
        let configuration = RecorderConfiguration(encoder: Self.x264, output: .init(path: path, container: .mkv), pace: .off,
                                                  frameLimit: 10)
        let recorder = Recorder(source: Self.camera(), sounds: [EpochNotingTone(noted)], configuration: configuration)
        #expect(recorder.waitUntilFinished(seconds: 60))
        #expect(recorder.currentStats.state == .finished, "\(recorder.currentStats.lastError ?? "")")
        // The fake driver's clock starts at 5000 s and stamps the first buffer within a frame or
        // two of it; this process's own clock (the fallback) is elsewhere.
        let fakeStart: UInt64 = 5_000_000_000_000
        let seen = try #require(noted.epoch.withLock { $0 })
        #expect((fakeStart...fakeStart + 1_000_000_000).contains(seen), "time 0 at \(seen) ns, not on the camera's clock")
    }

    @Test func aWrappedCameraIsWaitedForWhenUnplugged() throws {
        let path = Self.temp("mp4")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var configuration = RecorderConfiguration(encoder: Self.x264, output: .init(path: path, container: .mp4), pace: .off,
                                                  frameLimit: 12)
        configuration.onUnplug = .wait(seconds: 10)
        let faults = FakeFaults(unplugAfterFrames: 5, reappearAfterMicroseconds: 2_000_000)
        let recorder = Recorder(source: Self.camera(faults: faults), configuration: configuration)
        #expect(recorder.waitUntilFinished(seconds: 60))
        let stats = recorder.currentStats
        #expect(stats.state == .finished, "\(stats.lastError ?? "")")
        #expect(stats.gaps == 1)
        #expect(stats.framesCaptured == 12)
    }

    @Test func aWrappedMJPEGCameraIsStoredAsItComes() throws {
        let path = Self.temp("mkv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let copy = EncoderSettings(encoder: "copy", width: 0, height: 0, pixelFormat: .none)
        let configuration = RecorderConfiguration(encoder: copy, output: .init(path: path, container: .mkv), pace: .off, frameLimit: 5)
        let recorder = Recorder(source: Self.camera(.mjpeg, size: FrameSize(width: 1280, height: 720)), configuration: configuration)
        #expect(recorder.waitUntilFinished(seconds: 60))
        let stats = recorder.currentStats
        #expect(stats.state == .finished, "\(stats.lastError ?? "")")
        #expect(stats.mode.contains("stored as it comes"))
        #expect(try FrameReader.read(path: path).codecName == "mjpeg")
    }
}
