// network-camera: records a network camera (RTSP, RTMP, SRT, HTTP) into OUTPUT for a while and
// prints the summary.
//
//   network-camera URL OUTPUT [--seconds N]
//
// The camera's own H.264 or H.265 is stored as it comes (the `camera-copy` preset), with its sound.
// A URL may carry credentials (rtsp://user:password@camera/stream): they are used to connect and
// never printed, since the API hides them in every description and message.
import Foundation
import Rec

var positional: [String] = []
var seconds = 10
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--seconds": seconds = Int(arguments.popFirst() ?? "") ?? 0
    default: positional.append(argument)
    }
}

do throws(RecError) {
    guard positional.count == 2, let url = URL(string: positional[0]) else {
        throw RecError(kind: .invalidRequest, message: "usage: network-camera URL OUTPUT [--seconds N]")
    }
    var configuration = CaptureSession.Configuration(source: try .network(url))   // throws for a scheme it cannot record
    configuration.recordingURL = URL(fileURLWithPath: positional[1])
    configuration.duration = .seconds(seconds)         // the session stops by itself
    let session = try CaptureSession(configuration)
    print("connecting to \(configuration.source)")     // the URL without its password
    try await session.start()                          // returns once the first frame is in
    print("recording \(seconds) s")
    let summary = await session.waitUntilFinished()
    print(summary)                                     // the summary `rec stop` prints, with any error
    if summary.failure != nil { exit(1) }
} catch {
    FileHandle.standardError.write(Data("network-camera: \(error)\n".utf8))
    exit(error.exitStatus)
}
