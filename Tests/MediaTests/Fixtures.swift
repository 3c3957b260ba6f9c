import Foundation
import Encoding
import Media
import RecCore

/// Test inputs made by the tests: stand-in camera pictures (frame number stamped in each),
/// encoded with real encoders into real files.
enum Fixtures {
    static func temporary(_ ext: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("rec-fixture-\(UUID()).\(ext)").path
    }

    /// Encodes frames 0..<times.count of the test pattern at the given capture times (µs).
    @discardableResult
    static func encode(times: [Int64], to path: String, encoder: String = "libx264", bFrames: Int? = nil,
                       keyframeInterval: Int = 30, width: Int = 320, height: Int = 240) throws -> [EncodedPacket] {
        FFmpegLog.quiet()
        let pattern = TestPattern(width: width, height: height)
        let pix: PixelFormat = encoder == "mjpeg" ? .yuvj420p : .yuv420p
        var settings = EncoderSettings(encoder: encoder, width: width, height: height, pixelFormat: pix,
                                       keyframeInterval: keyframeInterval,
                                       rateControl: encoder == "mjpeg" ? .qscale(3) : .encoderDefault, bFrames: bFrames)
        if encoder == "libx264" { settings.speed = "veryfast" }
        if encoder == "libvpx-vp9" { settings.options = ["deadline": "realtime", "cpu-used": "8"] }
        let pipeline = try EncodingPipeline(settings: settings, input: pattern.format, filter: nil)
        let container = ContainerFormat(path: path)!
        let muxer = try Muxer(path: path, container: container.muxerName, streams: [pipeline.encoder.parameters])
        var packets: [EncodedPacket] = []
        for (i, t) in times.enumerated() {
            let frame = try VideoFrame(format: pattern.format, captureTime: .microseconds(t))
            pattern.draw(i, into: frame)
            try pipeline.encode(frame) { p throws(FFmpegError) in packets.append(p); try muxer.write(p) }
        }
        try pipeline.finish { p throws(FFmpegError) in packets.append(p); try muxer.write(p) }
        try muxer.finish()
        return packets
    }

    /// Constant 30 fps capture times for `count` frames.
    static func cfr(_ count: Int, fps: Int = 30) -> [Int64] {
        (0..<count).map { Int64($0) * 1_000_000 / Int64(fps) }
    }

    /// Variable frame rate: gaps cycling through 20, 50, 33 and 70 ms.
    static func vfr(_ count: Int) -> [Int64] {
        let gaps: [Int64] = [20_000, 50_000, 33_000, 70_000]
        var t: Int64 = 0
        return (0..<count).map { i in defer { t += gaps[i % gaps.count] }; return t }
    }

    /// Runs the ffmpeg CLI (tests may use it to make inputs rec does not make itself).
    static func ffmpeg(_ arguments: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        p.arguments = ["-v", "error", "-y"] + arguments
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw RecError.runtime("ffmpeg \(arguments) failed") }
    }
}
