import Foundation
import Media
import RecCore
import Testing

@Suite struct EncodeRoundTripTests {
    static func encodeTestPattern(frames: Int, to path: String, encoder: String = "libx264", container: String? = nil,
                                  pixelFormat: PixelFormat = .yuv420p, bFrames: Int? = nil, fps: Int = 30,
                                  options: [String: String] = [:]) throws -> [EncodedPacket] {
        let pattern = TestPattern(width: 320, height: 240)
        var settings = EncoderSettings(encoder: encoder, width: 320, height: 240, pixelFormat: pixelFormat,
                                       frameRate: Rational(Int32(fps), 1), keyframeInterval: fps,
                                       rateControl: encoder == "mjpeg" ? .qscale(3) : .encoderDefault, bFrames: bFrames,
                                       options: options)
        if encoder == "libx264" { settings.speed = "veryfast" }
        let pipeline = try EncodingPipeline(settings: settings, input: pattern.format, filter: nil)
        let muxer = try Muxer(path: path, container: container, streams: [pipeline.encoder.parameters])
        var packets: [EncodedPacket] = []
        for i in 0..<frames {
            let frame = try VideoFrame(format: pattern.format, captureTime: .microseconds(Int64(i) * 1_000_000 / Int64(fps)))
            pattern.draw(i, into: frame)
            try pipeline.encode(frame) { p throws(FFmpegError) in packets.append(p); try muxer.write(p) }
        }
        try pipeline.finish { p throws(FFmpegError) in packets.append(p); try muxer.write(p) }
        try muxer.finish()
        return packets
    }

    @Test func stampSurvivesRawDrawing() throws {
        let pattern = TestPattern(width: 320, height: 240)
        for i in [0, 1, 2, 255, 256, 65_537, FrameStamp.maxValue] {
            let frame = try VideoFrame(format: pattern.format)
            pattern.draw(i, into: frame)
            #expect(frame.readStamp() == i)
        }
    }

    @Test(arguments: [("libx264", "mp4"), ("libx264", "mkv"), ("mjpeg", "mkv"), ("ffv1", "mkv"), ("libvpx-vp9", "webm")])
    func encodeAndReadBackEveryFrame(encoder: String, ext: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rt-\(encoder)-\(UUID()).\(ext)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let pix: PixelFormat = encoder == "mjpeg" ? .yuvj420p : .yuv420p
        _ = try Self.encodeTestPattern(frames: 45, to: path, encoder: encoder, pixelFormat: pix)
        let report = try FrameReader.read(path: path)
        #expect(report.frames.map(\.stamp) == (0..<45).map { Optional($0) })
        let times = report.frames.map { $0.time.seconds }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(abs(times.last! - 44.0 / 30) < 0.002)
    }
}
