import Live
import Media
import RecCore
import Testing
import TestPool

/// The live picture is offered for an H.264 stream, known by its codec id, and for nothing else.
@Suite(.blocking) struct LiveCodecTests {
    static func encoded(_ name: String) throws -> CodecParameters {
        FFmpegLog.quiet()
        var settings = EncoderSettings(encoder: name, width: 320, height: 240,
                                       pixelFormat: name == "mjpeg" ? .yuvj420p : .yuv420p, bFrames: 0)
        if name == "libx264" { settings.speed = "veryfast" }
        return try VideoEncoder(settings).parameters
    }

    @Test func anH264StreamIsH264ByItsId() throws {
        let h264 = try Self.encoded("libx264")
        #expect(h264.isH264)
        let broadcast = LiveBroadcast(parameters: { h264 })
        defer { broadcast.stop() }
        #expect(broadcast.tracks?.video.hasPrefix("avc1.") == true, "\(String(describing: broadcast.tracks))")
    }

    @Test(arguments: ["mjpeg", "ffv1"])
    func anotherCodecHasNoLivePicture(name: String) throws {
        let other = try Self.encoded(name)
        #expect(!other.isH264)
        let broadcast = LiveBroadcast(parameters: { other })
        defer { broadcast.stop() }
        #expect(broadcast.tracks == nil)
    }

    @Test func aCameraMJPEGStreamIsNotH264() throws {
        let mjpeg = try CodecParameters(codecName: "mjpeg", width: 640, height: 480, pixelFormat: .yuvj422p,
                                        timeBase: .microseconds)
        #expect(!mjpeg.isH264)
    }
}
