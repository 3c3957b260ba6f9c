// error-kinds: provokes every error kind it can and switches on each, printing `CASE: kind KIND`.
//   error-kinds CAMERA_URL FOLDER   (a network camera that asks for a password, the right one in the URL)
import Foundation
import Rec

/// What a program would do about each kind: the switch a program makes, exhaustive on purpose.
func advice(_ kind: RecError.Kind) -> String {
    switch kind {
    case .invalidRequest, .unsupported: "fix the call"
    case .alreadyExists, .notWritable, .notPermitted, .diskFull: "choose another file, or make room"
    case .notFound, .unauthorized: "check the camera's URL and password"
    case .unreachable, .refused, .timedOut, .connectionLost, .deviceBusy, .deviceGone: "the camera is offline; try later"
    case .rangeNotHeld: "save a range the buffer holds"
    case .sessionEnded: "make a new session"
    case .failed: "log it"
    }
}

/// Runs one case, which should throw: prints the kind it threw, then the message.
func provoke(_ name: String, _ body: () async throws(RecError) -> Void) async {
    do { try await body(); print("\(name): no error") } catch {
        print("\(name): kind \(error.kind)\(error.held.map { ", held \($0)" } ?? "") (\(advice(error.kind)))\n  \(error)")
    }
}
/// A session on the stand-in camera at 320x240, recording into `url` if given, with `change` made.
func session(into url: URL? = nil, _ change: (inout CaptureSession.Configuration) -> Void = { _ in }) throws(RecError) -> CaptureSession {
    var configuration = CaptureSession.Configuration(source: .testPattern(width: 320, height: 240, fps: 30))
    configuration.recordingURL = url
    change(&configuration)
    return try CaptureSession(configuration)
}

/// Opens a network camera and stops: the errors come from `start()`.
func open(_ url: URL) async throws(RecError) {
    let session = try CaptureSession(.init(source: try .network(url)))
    try await session.start()
    await session.stop()
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let camera = URLComponents(string: arguments[1]) else { print("usage: error-kinds CAMERA_URL FOLDER"); exit(64) }
let folder = URL(fileURLWithPath: arguments[2], isDirectory: true)
_ = FileManager.default.createFile(atPath: folder.appendingPathComponent("exists.mp4").path, contents: nil)
var (wrongPassword, missingPath) = (camera, camera)
(wrongPassword.password, missingPath.path) = ("Wrong-42", "/no-such-stream")

await provoke("invalidRequest") { () throws(RecError) in _ = try Filter("no_such_filter") }
await provoke("alreadyExists") { () throws(RecError) in _ = try session(into: folder.appendingPathComponent("exists.mp4")) }
await provoke("notWritable") { () throws(RecError) in _ = try session(into: folder.appendingPathComponent("no-such-folder/clip.mp4")) }
await provoke("unsupported") { () throws(RecError) in _ = try session(into: folder.appendingPathComponent("h264.webm")) }
await provoke("refused") { () async throws(RecError) in try await open(URL(string: "rtsp://127.0.0.1:1/stream")!) }   // root's port, unused
await provoke("unreachable") { () async throws(RecError) in try await open(URL(string: "rtsp://camera.invalid/stream")!) }
await provoke("unauthorized") { () async throws(RecError) in try await open(wrongPassword.url!) }
await provoke("notFound") { () async throws(RecError) in try await open(missingPath.url!) }
await provoke("sessionEnded") { () async throws(RecError) in
    let once = try session { $0.duration = .seconds(1) }       // stops by itself
    try await once.start()
    try await once.start()                                      // a session runs once
}
await provoke("rangeNotHeld") { () async throws(RecError) in  // a 1 s buffer after 3 s: 0 to 0.5 s is gone
    let short = try session { ($0.replayBuffer, $0.duration, $0.pace) = (.init(duration: .seconds(1), bytes: 1 << 20), .seconds(3), .fastest) }
    try await short.start()
    await short.waitUntilFinished()                             // the buffer stays saveable
    _ = try await short.replayBuffer.save(from: .zero, to: .milliseconds(500), into: folder.appendingPathComponent("old.mp4"))
}
await provoke("diskFull") { () async throws(RecError) in      // last: the limit of 512 KiB a file stays
    signal(SIGXFSZ, SIG_IGN)                                    // a write past the limit fails with EFBIG, not the signal
    var limit = rlimit()
    getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
    limit.rlim_cur = min(limit.rlim_max, 512 << 10)
    setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
    let writer = try await AssetWriter(url: folder.appendingPathComponent("noise.mp4"), width: 320, height: 240)
    for n in 0..<60 {
        let frame = try Frame(width: 320, height: 240, time: .microseconds((n * 1_000_000 + 15) / 30))
        _ = frame.withMutablePlane(0) { bytes, _ in bytes.baseAddress.map { arc4random_buf($0, bytes.count) } }   // noise: no encoder squeezes it
        try writer.append(frame)
    }
    try await writer.finish()
}
