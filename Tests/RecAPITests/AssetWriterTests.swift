import Foundation
import Rec
import Testing

/// Pictures made by a program, encoded by `AssetWriter`, and a still photo: read back through the API.
@Suite struct AssetWriterTests {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "rec-api-writer-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    /// Each frame of `path` as (time, mean luma), read with a file session.
    func read(_ path: String) async throws -> [(Duration, Double)] {
        var c = CaptureSession.Configuration(source: .file(URL(fileURLWithPath: path)))
        c.pace = .fastest
        let session = try CaptureSession(c)
        let seen = Collected()
        session.onFrame { frame in
            let mean = frame.withPlane(0) { bytes, bytesPerRow in
                var sum = 0
                for row in 0..<frame.height { for x in 0..<frame.width { sum += Int(bytes[row * bytesPerRow + x]) } }
                return Double(sum) / Double(frame.width * frame.height)
            } ?? -1
            seen.append((frame.time, mean))
        }
        try await session.start()
        await session.waitUntilFinished()
        return seen.all
    }

    @Test func writtenPicturesComeBackAtTheirTimes() async throws {
        let path = "\(folder)/grey.mp4"
        let writer = try await AssetWriter(url: URL(fileURLWithPath: path), width: 320, height: 240)
        for n in 0..<60 {
            let frame = try Frame(width: 320, height: 240, time: .microseconds(Int64(n) * 1_000_000 / 30))
            let luma = UInt8(40 + n * 3)
            _ = frame.withMutablePlane(0) { bytes, _ in bytes.initializeMemory(as: UInt8.self, repeating: luma) }
            _ = frame.withMutablePlane(1) { bytes, _ in bytes.initializeMemory(as: UInt8.self, repeating: 128) }
            _ = frame.withMutablePlane(2) { bytes, _ in bytes.initializeMemory(as: UInt8.self, repeating: 128) }
            try writer.append(frame)
        }
        let summary = try await writer.finish()
        #expect(summary.frames == 60)
        let frames = try await read(path)
        #expect(frames.count == 60)
        for (n, frame) in frames.enumerated() {
            #expect(abs(frame.1 - Double(40 + n * 3)) < 3, "frame \(n): mean luma \(frame.1)")
        }
    }

    @Test func aFrameOfAnotherSizeIsRefused() async throws {
        let writer = try await AssetWriter(url: URL(fileURLWithPath: "\(folder)/size.mkv"), width: 320, height: 240)
        do {
            try writer.append(try Frame(width: 640, height: 480, time: .zero))
            Issue.record("a 640x480 frame went into a 320x240 writer")
        } catch {
            #expect(error.kind == .invalidRequest && error.exitStatus == 64)
            #expect(error.message.contains("320x240"))
        }
        try await writer.finish()
    }

    @Test func aStillPhotoDecodes() async throws {
        var c = CaptureSession.Configuration(source: .testPattern(width: 320, height: 240, fps: 30))
        c.pace = .fastest
        let session = try CaptureSession(c)
        try await session.start()
        let photo = try await session.capturePhoto(into: URL(fileURLWithPath: "\(folder)/still.jpg"))
        await session.stop()
        #expect(photo.width == 320 && photo.height == 240)
        #expect(photo.description.hasPrefix("saved \(folder)/still.jpg (320x240"))
        let frames = try await read(photo.url.path)
        #expect(frames.count == 1)
        #expect(frames.first.map { $0.1 > 16 } == true)
    }
}

final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [(Duration, Double)] = []
    func append(_ item: (Duration, Double)) { lock.withLock { items.append(item) } }
    var all: [(Duration, Double)] { lock.withLock { items } }
}
