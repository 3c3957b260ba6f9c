import Foundation
import Rec
import TestServers
import Testing

/// Issue 41: errors a program can switch on. Each kind is provoked for real (a port nothing
/// listens on, GStreamer's RTSP server refusing a password or a path, a replay buffer that let a
/// range go; a full disk in scripts/examples.sh, under a file size limit), and every message is
/// in the API's words, not the command line's.
@Suite struct ErrorKindTests {
    let folder: URL

    init() throws {
        folder = URL(fileURLWithPath: NSTemporaryDirectory() + "rec-api-errors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// The error `body` throws; records an issue when it throws none.
    func error(_ what: String, _ body: () async throws(RecError) -> Void) async -> RecError? {
        do {
            try await body()
            Issue.record("\(what): no error")
            return nil
        } catch {
            #expect(!error.message.contains("--"), "\(what): \(error.message)")
            #expect(!error.message.contains("`rec "), "\(what): \(error.message)")
            return error
        }
    }

    /// Opens `url` as a session's source: the error a program sees from `start()`.
    func start(_ url: String) async -> RecError? {
        await error(url) { () throws(RecError) in
            guard let parsed = URL(string: url) else { throw RecError(kind: .invalidRequest, message: "bad test URL") }
            let session = try CaptureSession(.init(source: try .network(parsed)))
            try await session.start()
            await session.stop()
        }
    }

    @Test func networkCamerasFailWithAKindEach() async throws {
        let server = try RTSPTestServer(.init(credentials: (user: "viewer", password: "s3cret")))
        let base = "127.0.0.1:\(server.port)"
        let wrong = await start("rtsp://viewer:nope@\(base)\(RTSPTestServer.Mount.h264.rawValue)")
        #expect(wrong?.kind == .unauthorized, "\(String(describing: wrong))")
        #expect(wrong.map { !$0.description.contains("nope") } == true)
        let missing = await start("rtsp://viewer:s3cret@\(base)/no-such-stream")
        #expect(missing?.kind == .notFound, "\(String(describing: missing))")
        let refused = await start("rtsp://127.0.0.1:\(try Self.closedPort())/h264")
        #expect(refused?.kind == .refused, "\(String(describing: refused))")
        let unknown = await start("rtsp://no-such-camera.invalid/h264")
        #expect(unknown?.kind == .unreachable, "\(String(describing: unknown))")
    }

    @Test func filesAndChoicesFailWithAKindEach() async throws {
        let taken = folder.appendingPathComponent("taken.mp4")
        _ = FileManager.default.createFile(atPath: taken.path, contents: Data([1]))
        let exists = await error("an existing file") { () throws(RecError) in
            _ = try await AssetWriter(url: taken, width: 64, height: 64)
        }
        #expect(exists?.kind == .alreadyExists && exists?.exitStatus == 64)
        let nowhere = await error("a missing folder") { () throws(RecError) in
            _ = try await AssetWriter(url: folder.appendingPathComponent("none/clip.mp4"), width: 64, height: 64)
        }
        #expect(nowhere?.kind == .notWritable)
        let container = await error("H.264 in WebM") { () throws(RecError) in
            _ = try await AssetWriter(url: folder.appendingPathComponent("clip.webm"), width: 64, height: 64)
        }
        #expect(container?.kind == .unsupported)
        let filter = await error("a filter FFmpeg lacks") { () throws(RecError) in _ = try Filter("no_such_filter=3") }
        #expect(filter?.kind == .invalidRequest && filter?.cause != nil)
        let option = await error("an option hflip lacks") { () throws(RecError) in _ = try Filter("scale=w=banana") }
        #expect(option?.kind == .invalidRequest)
        #expect(try Filter("hflip,eq=contrast=1.2").description == "hflip,eq=contrast=1.2")
        let preset = await error("an unknown preset") { () throws(RecError) in _ = try Preset(named: "no-such-preset") }
        #expect(preset?.kind == .notFound)
        let source = await error("a source that does not parse") { () throws(RecError) in
            _ = try CaptureSession.Source(parsing: "v4l2:")
        }
        #expect(source?.kind == .invalidRequest)
        let camera = await error("a camera that is not there") { () throws(RecError) in
            let session = try CaptureSession(.init(source: .camera(URL(fileURLWithPath: "/dev/video-none"))))
            try await session.start()
        }
        #expect(camera?.kind == .notFound)
        let file = await error("a file that is not there") { () throws(RecError) in
            let session = try CaptureSession(.init(source: .file(folder.appendingPathComponent("none.mp4"))))
            try await session.start()
        }
        #expect(file?.kind == .notFound, "\(String(describing: file))")
    }

    @Test func aRangeLetGoIsNotHeldAndAnEndedSessionSaysSo() async throws {
        var c = CaptureSession.Configuration(source: .testPattern(width: 160, height: 120, fps: 30))
        c.pace = .fastest
        c.duration = .seconds(6)
        c.replayBuffer = ReplayBuffer.Limits(duration: .seconds(1), bytes: 1 << 20)
        let session = try CaptureSession(c)
        try await session.start()
        await session.waitUntilFinished()
        let held = try #require(session.replayBuffer.range)
        let gone = await error("a range let go") { () throws(RecError) in
            _ = try await session.replayBuffer.save(from: .seconds(1), to: .seconds(2), into: folder.appendingPathComponent("old.mp4"))
        }
        // What a save can be served from: the buffer's range, from just after the last picture let go.
        let served = try #require(gone?.held)
        #expect(gone?.kind == .rangeNotHeld && served.upperBound == held.upperBound, "\(String(describing: gone)) held \(held)")
        #expect(served.lowerBound <= held.lowerBound && held.lowerBound - served.lowerBound <= .milliseconds(34))
        let again = await error("a second start") { () throws(RecError) in try await session.start() }
        #expect(again?.kind == .sessionEnded)
    }

    /// A loopback port nothing listens on: bound, then closed.
    static func closedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw RecError(kind: .failed, message: "cannot bind a loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
