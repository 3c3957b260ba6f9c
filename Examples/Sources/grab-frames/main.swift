// grab-frames: prints the capture time and mean brightness of a source's first frames (and the
// number the stand-in camera drew into each), then stops.
//
//   grab-frames [--source SOURCE] [--frames N]
//
// SOURCE is anything `rec record --source` takes: `test` (the stand-in camera, the default),
// `test:640x360@30`, `/dev/video0`, `file:clip.mp4`, `rtsp://…`.
import Foundation
import Rec

var source = "test"
var count = 30
var arguments = CommandLine.arguments.dropFirst()
while let option = arguments.popFirst() {
    switch option {
    case "--source": source = arguments.popFirst() ?? ""
    case "--frames": count = max(1, Int(arguments.popFirst() ?? "") ?? 1)
    default: FileHandle.standardError.write(Data("usage: grab-frames [--source SOURCE] [--frames N]\n".utf8)); exit(64)
    }
}

/// The mean of plane 0 (the luma of YUV formats): how bright the picture is, 0 to 255.
func brightness(of frame: Frame) -> Double? {
    frame.withPlane(0) { bytes, bytesPerRow in
        var sum = 0
        for row in 0..<frame.height {
            for x in 0..<frame.width { sum += Int(bytes[row * bytesPerRow + x]) }
        }
        return Double(sum) / Double(frame.width * frame.height)
    }
}

/// A time as seconds with three decimals.
func seconds(_ time: Duration) -> String {
    String(format: "%.3f", Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18)
}

do throws(RecError) {
    // Text from a user is parsed (and may throw); in code, `.testPattern` and the others cannot be misspelt.
    let configuration = CaptureSession.Configuration(source: try CaptureSession.Source(parsing: source))
    let session = try CaptureSession(configuration)   // checks the options as `rec record` does
    // Subscribe before start(), so the first frame is ours too; keep up to `count` frames for us,
    // so none is skipped while we print (a slow consumer gets the newest 2 by default).
    var frames = session.frames(keepingNewest: count).makeAsyncIterator()
    try await session.start()                          // returns once the first frame is in
    print("frames from \(configuration.source):")
    for _ in 0..<count {
        guard let frame = try await frames.next() else { break }   // nil: the source ended
        let mean = brightness(of: frame).map { String(format: "%.1f", $0) } ?? "encoded (\(frame.pixelFormatName))"
        // The stand-in camera draws each frame's number into it; other sources have none.
        let drawn = frame.standInNumber.map { ", drawn number \($0)" } ?? ""
        print("frame \(frame.number) at \(seconds(frame.time)) s, brightness \(mean)\(drawn)")
    }
    print(await session.stop())                        // the summary `rec stop` prints
} catch {
    FileHandle.standardError.write(Data("grab-frames: \(error)\n".utf8))
    exit(error.exitStatus)
}
