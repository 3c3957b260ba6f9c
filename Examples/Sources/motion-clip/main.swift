// motion-clip: watches a source's frames for motion and, when it starts, saves a clip from 1 s
// before the first moving frame to 2 s after it: a replay clip triggered by what the pictures show.
//
//   motion-clip OUTPUT [--source SOURCE]
//
// Motion is a picture whose luma differs from the one before by more than 24 levels in more than
// 0.1 % of its pixels. A file source is delivered in real time (the default pace), as a camera
// would be: the save's end is then 2 s in the future and the save waits for it, and this loop,
// a few milliseconds a frame, keeps up, so it sees every frame and the first moving one exactly.
// At `.fastest` the file would be read to its end while this loop still looked at its start.
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

/// A picture's luma plane, row after row without padding; nil for an encoded frame.
func luma(of frame: Frame) -> [UInt8]? {
    guard frame.pixelFormat?.name.hasPrefix("yuv") == true else { return nil }   // planar YUV: plane 0 is luma
    return frame.withPlane(0) { bytes, bytesPerRow in
        (0..<frame.height).flatMap { row in bytes[row * bytesPerRow..<row * bytesPerRow + frame.width] }
    }
}

/// How many pixels differ by more than `threshold` luma levels.
func changedPixels(_ a: [UInt8], _ b: [UInt8], threshold: Int = 24) -> Int {
    var changed = 0
    for i in 0..<min(a.count, b.count) where abs(Int(a[i]) - Int(b[i])) > threshold { changed += 1 }
    return changed
}

do throws(RecError) {
    guard let output else { throw RecError(kind: .invalidRequest, message: "usage: motion-clip OUTPUT [--source SOURCE]") }
    let session = try CaptureSession(.init(source: try CaptureSession.Source(parsing: source)))
    // Subscribed before start(): frame 0 is ours. A second of slack, should the loop fall behind.
    let frames = session.frames(keepingNewest: 30)
    try await session.start()
    var previous: (number: Int, luma: [UInt8])?
    var motion: Frame?
    for try await frame in frames {
        guard let picture = luma(of: frame) else { throw RecError(kind: .unsupported, message: "motion-clip needs planar YUV pictures") }
        if let previous, frame.number != previous.number + 1 { print("skipped frames \(previous.number + 1)..<\(frame.number)") }
        if let previous, changedPixels(previous.luma, picture) > picture.count / 1000 {
            motion = frame
            break                                      // stops watching; the session records on
        }
        previous = (frame.number, picture)
    }
    guard let motion else { throw RecError(kind: .failed, message: "the source ended with no motion") }
    print("motion at frame \(motion.number), \(motion.time)")
    // From 1 s before the first moving frame to 2 s after it: the end is still to come, so the
    // save waits until the session has recorded it.
    let clip = try await session.replayBuffer.save(from: motion.time - .seconds(1), to: motion.time + .seconds(2), into: output)
    print(clip)                                        // what `rec save` prints
    print(await session.stop())
} catch {
    FileHandle.standardError.write(Data("motion-clip: \(error)\n".utf8))
    exit(error.exitStatus)
}
