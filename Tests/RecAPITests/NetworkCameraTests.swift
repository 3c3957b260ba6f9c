import Foundation
import Rec
import TestServers
import Testing

/// A network camera through the public API, against GStreamer's RTSP server on loopback: its
/// H.264 frames arrive encoded, and an `AssetWriter` stores them as they are.
@Suite struct NetworkCameraTests {
    @Test func encodedFramesAreStoredAsTheyCame() async throws {
        let server = try RTSPTestServer(.init(credentials: (user: "viewer", password: "s3cret")))
        let url = try #require(URL(string: "rtsp://viewer:s3cret@127.0.0.1:\(server.port)\(RTSPTestServer.Mount.h264.rawValue)"))
        let source = try CaptureSession.Source.network(url)
        #expect(!source.description.contains("s3cret"))
        let folder = NSTemporaryDirectory() + "rec-api-net-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let session = try CaptureSession(.init(source: source))
        try await session.start()
        var writer: AssetWriter?
        var written = 0
        for try await frame in session.frames(keepingNewest: 1000) {
            #expect(frame.isEncoded && frame.codec == .h264 && frame.pixelFormat == nil)
            #expect(frame.width == 160 && frame.height == 90)
            if writer == nil {
                guard frame.isKeyframe else { continue }
                writer = try await AssetWriter(url: URL(fileURLWithPath: "\(folder)/copy.mkv"), copying: frame)
            }
            try writer?.append(frame)
            written += 1
            if written == 45 { break }
        }
        await session.stop()
        let summary = try await #require(writer).finish()
        #expect(summary.frames == 45)
        var c = CaptureSession.Configuration(source: .file(URL(fileURLWithPath: "\(folder)/copy.mkv")))
        c.pace = .fastest
        let reread = try CaptureSession(c)
        let count = Counter()
        reread.onFrame { frame in if frame.width == 160 { count.add() } }
        try await reread.start()
        await reread.waitUntilFinished()
        #expect(count.value == 45)
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.withLock { n += 1 } }
    var value: Int { lock.withLock { n } }
}
