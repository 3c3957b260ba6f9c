// still-photo: starts a source, takes one still photo (a JPEG of the newest frame) and stops.
//
//   still-photo OUTPUT.jpg [--source SOURCE]
//
// SOURCE is anything `rec record --source` takes; the stand-in camera by default.
import Foundation
import Rec

var output: URL?
var source = "test"
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--source": source = arguments.popFirst() ?? ""
    default: output = URL(fileURLWithPath: argument)
    }
}

do throws(RecError) {
    guard let output else { throw RecError(kind: .invalidRequest, message: "usage: still-photo OUTPUT.jpg [--source SOURCE]") }
    let session = try CaptureSession(.init(source: try CaptureSession.Source(parsing: source)))
    try await session.start()                          // returns once the first frame is in
    let photo = try await session.capturePhoto(into: output)
    print(photo)                                       // what `rec snapshot` prints
    await session.stop()
} catch {
    FileHandle.standardError.write(Data("still-photo: \(error)\n".utf8))
    exit(error.exitStatus)
}
