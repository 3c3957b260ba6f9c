// network-stills: records a network camera into OUTPUT for a while and takes a still photo of it
// every second meanwhile, into FOLDER/still-1.jpg, still-2.jpg, …
//
//   network-stills URL OUTPUT FOLDER [--seconds N]
//
// The camera's own H.264 or H.265 is stored as it comes (`Preset.cameraCopy`, a network camera's
// default); each still is its newest picture, decoded for the photo. The seconds are the camera's:
// a still is taken when a frame's time reaches the next whole second. Credentials in the URL
// (rtsp://user:password@camera/stream) are used to connect and never printed.
import Foundation
import Rec

var positional: [String] = []
var seconds = 5
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--seconds": seconds = Int(arguments.popFirst() ?? "") ?? 0
    default: positional.append(argument)
    }
}

do throws(RecError) {
    guard positional.count == 3, let url = URL(string: positional[0]), seconds > 1 else {
        throw RecError(kind: .invalidRequest, message: "usage: network-stills URL OUTPUT FOLDER [--seconds N], N at least 2")
    }
    let folder = URL(fileURLWithPath: positional[2], isDirectory: true)
    var configuration = CaptureSession.Configuration(source: try .network(url))
    configuration.recordingURL = URL(fileURLWithPath: positional[1])
    configuration.duration = .seconds(seconds)         // the session stops by itself
    let session = try CaptureSession(configuration)
    print("connecting to \(configuration.source)")     // the URL without its password
    let frames = session.frames()                      // the camera's encoded frames, each with its time
    try await session.start()
    var next = 1
    // The loop ends when the session does, after `seconds`.
    for try await frame in frames where frame.time >= .seconds(next) {
        let still = folder.appendingPathComponent("still-\(next).jpg")
        let photo = try await session.capturePhoto(into: still, overwrite: true)
        print("still \(next): \(photo.width ?? 0)x\(photo.height ?? 0) of the frame at \(photo.time), \(photo.bytes) bytes")
        next += 1
    }
    let summary = await session.waitUntilFinished()
    print(summary)                                     // the summary `rec stop` prints, with any error
    if let failure = summary.failure { throw failure }
} catch {
    FileHandle.standardError.write(Data("network-stills: \(error)\n".utf8))
    exit(error.exitStatus)
}
