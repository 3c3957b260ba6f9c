@testable import Capture
import Foundation
import Media
import RecCore
import Session
import Testing
import VideoDevices
import TestPool

/// The camera end to end: a `V4L2Camera` on the fake driver, through the real `Recorder`, into a
/// file that is reopened and decoded. The fake's clock only moves when the camera waits, so frames
/// come as fast as the recorder takes them: pace `.off`.
@Suite("Camera → recorder → file through the fake driver", .blocking)
struct CameraPipelineTests {
    struct Recording {
        var stats: RecorderStats
        var report: FrameReader.Report
        var path: String
    }

    static let x264 = EncoderSettings(encoder: "libx264", width: 0, height: 0, pixelFormat: .yuv420p, speed: "veryfast")
    /// Lossless, with the chroma layout of YUYV: the fake's bytes come back out unchanged.
    static let ffv1 = EncoderSettings(encoder: "ffv1", width: 0, height: 0, pixelFormat: PixelFormat(name: "yuv422p")!)

    /// Records up to `frames` frames from the fake webcam at /dev/video0 and reads the file back.
    static func record(_ size: String, _ format: FourCC, faults: FakeFaults = FakeFaults(), frames: Int,
                       encoder: EncoderSettings = x264, container: ContainerFormat = .mp4) throws -> Recording {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("camera-\(UUID().uuidString).\(container == .mp4 ? "mp4" : "mkv")").path
        let configuration = RecorderConfiguration(encoder: encoder, output: .init(path: path, container: container),
                                                  pace: .off, frameLimit: frames)
        let request = CameraRequest(size: FrameSize(size), frameRate: Rational(30, 1), pixelFormat: format)
        let recorder = Recorder(source: V4L2Camera(path: "/dev/video0", request: request,
                                                   system: FakeV4L2System.webcam(faults: faults)),
                                configuration: configuration)
        #expect(recorder.waitUntilFinished(seconds: 60))
        return Recording(stats: recorder.currentStats, report: try FrameReader.read(path: path), path: path)
    }

    /// Seconds between consecutive frames of the file.
    static func steps(_ report: FrameReader.Report) -> [Double] {
        zip(report.frames.dropFirst(), report.frames).map { $0.time.seconds - $1.time.seconds }
    }

    /// The first luma sample and the first luma sample of `row` of every decoded frame.
    static func lumaSamples(_ path: String, row: Int) throws -> [(first: UInt8, row: UInt8)] {
        let demuxer = try Demuxer(path: path)
        let stream = demuxer.streams[try #require(demuxer.bestVideoStream)]
        let decoder = try VideoDecoder(parameters: stream.parameters, threads: 1)
        var samples: [(first: UInt8, row: UInt8)] = []
        func collect() throws {
            while case .output(let frame) = try decoder.receive() {
                let luma = try #require(frame.plane(0))
                samples.append((luma.base[0], luma.base[row * luma.bytesPerRow]))
            }
        }
        while let packet = try demuxer.read() {
            guard packet.streamIndex == stream.index else { continue }
            while !(try decoder.send(packet)) { try collect() }
            try collect()
        }
        _ = try decoder.send(nil)
        try collect()
        return samples
    }

    @Test(arguments: [("640x480", FourCC.yuyv), ("1280x720", FourCC.mjpeg)])
    func everyDeliveredFrameIsInTheFileInOrder(_ size: String, _ format: FourCC) throws {
        let recording = try Self.record(size, format, frames: 12)
        defer { try? FileManager.default.removeItem(atPath: recording.path) }
        #expect(recording.stats.state == .finished)
        #expect(recording.stats.lastError == nil)
        #expect(recording.stats.framesCaptured == 12)
        #expect(recording.stats.framesEncoded == 12)
        #expect(recording.stats.droppedBySource == 0)
        #expect(recording.stats.source == "/dev/video0")
        #expect(recording.report.codecName == "h264")
        #expect("\(recording.report.width)x\(recording.report.height)" == size)
        #expect(recording.report.frames.count == 12)
        #expect(recording.report.frames.first?.time == .zero)
        // The fake's driver timestamps: 1/30 s apart, ±0.5 ms jitter.
        let steps = Self.steps(recording.report)
        #expect(steps.allSatisfy { (0.0325...0.0342).contains($0) }, "\(steps)")
    }

    @Test func yuyvPixelsSurviveALosslessRecording() throws {
        let recording = try Self.record("640x480", .yuyv, frames: 8, encoder: Self.ffv1, container: .mkv)
        defer { try? FileManager.default.removeItem(atPath: recording.path) }
        #expect(recording.report.codecName == "ffv1")
        let samples = try Self.lumaSamples(recording.path, row: 300)
        // The fake writes the frame number into the first byte (Y of pixel 0) and row % 251 into every row.
        #expect(samples.map { $0.first } == [0, 1, 2, 3, 4, 5, 6, 7])
        #expect(samples.allSatisfy { $0.row == UInt8(300 % 251) })
    }

    @Test func sequenceGapsAndErrorBuffersCountAsDroppedBySource() throws {
        let faults = FakeFaults(sequenceSkips: [3: 2], errorFrames: [6])
        let recording = try Self.record("640x480", .yuyv, faults: faults, frames: 10, encoder: Self.ffv1, container: .mkv)
        defer { try? FileManager.default.removeItem(atPath: recording.path) }
        #expect(recording.stats.state == .finished)
        #expect(recording.stats.droppedBySource == 3)
        #expect(recording.stats.framesCaptured == 10)
        #expect(recording.report.frames.count == 10)
        // Frame 6 was flagged corrupt and skipped; the others arrive in order.
        #expect(try Self.lumaSamples(recording.path, row: 1).map { $0.first } == [0, 1, 2, 3, 4, 5, 7, 8, 9, 10])
        #expect(Self.steps(recording.report).allSatisfy { $0 > 0 })
    }

    @Test(arguments: [FourCC.yuyv, FourCC.mjpeg])
    func unplugEndsTheRecordingWithAReadableFile(_ format: FourCC) throws {
        let faults = FakeFaults(unplugAfterFrames: 7)
        let recording = try Self.record("640x480", format, faults: faults, frames: 30)
        defer { try? FileManager.default.removeItem(atPath: recording.path) }
        #expect(recording.stats.state == .failed)
        #expect(recording.stats.lastError?.hasPrefix("/dev/video0 was unplugged (or stopped responding) while recording") == true,
                "\(recording.stats.lastError ?? "no error")")
        #expect(recording.stats.framesCaptured == 7)
        #expect(recording.stats.framesEncoded == 7)
        #expect(recording.report.frames.count == 7)
        #expect(Self.steps(recording.report).allSatisfy { $0 > 0 })
    }
}
