// filter-record: records a source through a filter written in Swift, every byte of every frame
// inverted (a photographic negative), encoding the new frames into OUTPUT with an AssetWriter.
//
//   filter-record OUTPUT [--source SOURCE] [--seconds N] [--original PATH] [--fastest]
// --original also records the source as it came; --fastest runs a test pattern as fast as it can.
import Foundation
import Rec

var output: URL?
var source = "test"
var configuration = CaptureSession.Configuration(source: .testPattern)
configuration.duration = .seconds(3)                    // the session stops by itself
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--source": source = arguments.popFirst() ?? ""
    case "--seconds": configuration.duration = .seconds(Int(arguments.popFirst() ?? "") ?? 0)
    case "--original": configuration.recordingURL = arguments.popFirst().map { URL(fileURLWithPath: $0) }
    case "--fastest": configuration.pace = .fastest
    default: output = URL(fileURLWithPath: argument)
    }
}

/// A new frame at the same time whose every byte is 255 minus the source's; nil for an encoded one.
func negative(of frame: Frame) throws(RecError) -> Frame? {
    guard let format = frame.pixelFormat else { return nil }
    let result = try Frame(width: frame.width, height: frame.height, pixelFormat: format, time: frame.time)
    for plane in 0..<frame.planeCount {
        frame.withPlane(plane) { source, sourceStride in
            result.withMutablePlane(plane) { target, targetStride in
                for row in 0..<min(source.count / sourceStride, target.count / targetStride) {
                    for x in 0..<min(sourceStride, targetStride) { target[row * targetStride + x] = 255 - source[row * sourceStride + x] }
                }
            }
        }
    }
    return result
}

do throws(RecError) {
    guard let output else { throw RecError(kind: .invalidRequest, message: "usage: filter-record OUTPUT [--source SOURCE] [--seconds N] …") }
    configuration.source = try CaptureSession.Source(parsing: source)
    let session = try CaptureSession(configuration)
    // The filter runs on the capture thread, for every frame; the writer takes its results in order.
    let (filtered, queue) = AsyncStream.makeStream(of: Frame.self)
    session.onFrame { frame in
        if let picture = try? negative(of: frame) { queue.yield(picture) }
    }
    try await session.start()
    Task { print(await session.waitUntilFinished()); queue.finish() }   // the source's summary, then the end
    var writer: AssetWriter?
    for await picture in filtered {
        if writer == nil, let format = picture.pixelFormat {   // made for the first frame's size and pixel format
            writer = try await AssetWriter(url: output, width: picture.width, height: picture.height, pixelFormat: format)
        }
        try writer?.append(picture)
    }
    if let writer { print(try await writer.finish()) }
} catch {
    FileHandle.standardError.write(Data("filter-record: \(error)\n".utf8))
    exit(error.exitStatus)
}
