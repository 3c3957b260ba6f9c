import RecCore
import Testing

/// Every form `--source` takes, and every way it can be wrong.
@Suite struct SourceSpecTests {
    @Test(arguments: [
        ("test", SourceSpec.testPattern(width: nil, height: nil, fps: nil)),
        ("test:1280x720", .testPattern(width: 1280, height: 720, fps: nil)),
        ("test:1280x720@30", .testPattern(width: 1280, height: 720, fps: 30)),
        ("test:640X480@1000", .testPattern(width: 640, height: 480, fps: 1000)),
        ("test:16x16@1", .testPattern(width: 16, height: 16, fps: 1)),
        ("file:talk.mp4", .file(path: "talk.mp4")),
        ("file:/tmp/a b/c.mkv", .file(path: "/tmp/a b/c.mkv")),
        ("file:file:x", .file(path: "file:x")),
        ("/dev/video0", .camera(path: "/dev/video0")),
        ("v4l2:/dev/video2", .camera(path: "/dev/video2")),
        ("/dev/v4l/by-id/usb-Cam-video-index0", .camera(path: "/dev/v4l/by-id/usb-Cam-video-index0")),
    ])
    func parses(text: String, spec: SourceSpec) throws {
        #expect(try SourceSpec.parse(text) == spec)
    }

    @Test func noSourceMeansTheDefaultCamera() throws {
        #expect(try SourceSpec.parse(nil) == .defaultCamera)
        #expect(try SourceSpec.parse("") == .defaultCamera)
    }

    @Test(arguments: ["test:", "test:@30", "test:1280x720@30@2", "test:abc", "test:1280", "test:15x15", "test:1281x720@30",
                      "test:1280x720x2"])
    func badTestSource(text: String) {
        #expect(throws: RecError.usage("'\(text)' is not a test source; write test or test:WIDTHxHEIGHT@FPS, e.g. test:1280x720@30")) {
            try SourceSpec.parse(text)
        }
    }

    @Test(arguments: [("test:1280x720@0", "0"), ("test:1280x720@1001", "1001"), ("test:1280x720@-5", "-5"),
                      ("test:1280x720@29.97", "29.97"), ("test:1280x720@", ""), ("test:1280x720@fast", "fast")])
    func badFrameRate(text: String, rate: String) {
        #expect(throws: RecError.usage("'\(rate)' is not a frame rate in '\(text)'; use a whole number such as 30")) {
            try SourceSpec.parse(text)
        }
    }

    @Test func fileNeedsAPath() {
        #expect(throws: RecError.usage("'file:' needs a path, e.g. --source file:talk.mp4")) { try SourceSpec.parse("file:") }
    }

    @Test(arguments: ["video0", "TEST", "test2", "camera", "./in.mp4", "dev/video0", "ftp://cam/stream"])
    func unknownSource(text: String) {
        let message = "unknown source '\(text)'; use test, test:1280x720@30, file:PATH, a camera such as /dev/video0 "
            + "(see 'rec devices'), a network camera's URL (rtsp://, rtmp://, srt://, http://), screen or x11:DISPLAY"
        #expect(throws: RecError.usage(message)) { try SourceSpec.parse(text) }
    }

    @Test(arguments: ["rtsp://cam/live", "RTSP://cam:554/x?transport=udp", "rtmp://127.0.0.1/live/cam", "srt://127.0.0.1:9000",
                      "http://cam/stream.mjpg", "https://cam/ts"])
    func networkCameras(text: String) throws {
        guard case .network(let url) = try SourceSpec.parse(text) else {
            Issue.record("\(text) is not a network source")
            return
        }
        #expect(try SourceSpec.parse(text).isNetwork)
        #expect(url == (try NetworkURL.parse(text)))
    }

    /// A password never reaches a message, nor the source's description.
    @Test func credentialsStayHidden() throws {
        let spec = try SourceSpec.parse("rtsp://admin:s3cret@cam:554/live")
        #expect(spec.hidesCredentials)
        #expect(!spec.description.contains("s3cret") && !spec.description.contains("admin"))
        #expect(throws: RecError.self) { try SourceSpec.parse("rtsp://admin:s3cret@") }
        do { _ = try SourceSpec.parse("rtsp://admin:s3cret@") } catch { #expect(!error.message.contains("s3cret")) }
    }

    /// `v4l2:` with no path should fail like `file:` does, not name a camera at "".
    @Test func v4l2NeedsAPath() {
        #expect(throws: RecError.self) { try SourceSpec.parse("v4l2:") }
    }

    @Test(arguments: [("1280x720", 1280, 720), ("1280X720", 1280, 720), ("16x16", 16, 16), ("16384x16384", 16384, 16384),
                      ("320x240", 320, 240)])
    func parsesSize(text: String, width: Int, height: Int) throws {
        let size = try SourceSpec.parseSize(text)
        #expect(size.width == width && size.height == height)
    }

    @Test(arguments: ["1280", "1280x", "x720", "axb", "1280x720x2", "", "1280*720", "1280x720p", "12.5x16"])
    func sizeNotWritten(text: String) {
        #expect(throws: RecError.usage("'\(text)' is not a size; write WIDTHxHEIGHT, e.g. 1280x720")) {
            try SourceSpec.parseSize(text)
        }
    }

    @Test(arguments: ["14x720", "1281x720", "1280x721", "16386x720", "1280x16386", "0x0", "-16x16"])
    func sizeOutOfRange(text: String) {
        #expect(throws: RecError.usage("size \(text) is out of range; width and height must be even and from 16 to 16384")) {
            try SourceSpec.parseSize(text)
        }
    }

    /// Two x's in a row are a typo, not a size.
    @Test func doubledSeparatorIsNotASize() {
        #expect(throws: RecError.self) { try SourceSpec.parseSize("1280xx720") }
    }

    @Test(arguments: [SourceSpec.testPattern(width: nil, height: nil, fps: nil), .testPattern(width: 640, height: 480, fps: nil),
                      .testPattern(width: 640, height: 480, fps: 25), .file(path: "/x/in.mkv"), .camera(path: "/dev/video1")])
    func descriptionParsesBack(spec: SourceSpec) throws {
        #expect(try SourceSpec.parse(spec.description) == spec)
    }

    @Test func descriptions() {
        #expect(SourceSpec.defaultCamera.description == "default camera")
        #expect(SourceSpec.testPattern(width: 320, height: 240, fps: 30).description == "test:320x240@30")
        #expect(SourceSpec.camera(path: "/dev/video0").description == "/dev/video0")
    }
}
