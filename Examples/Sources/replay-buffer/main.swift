// replay-buffer: records into a replay buffer only, and when Enter is pressed saves the 10 s around
// the press (5 s before it, 5 s after) into OUTPUT, exactly, then stops.
//
//   replay-buffer OUTPUT [--source SOURCE] [--audio SOUND] [--around SECONDS]
//
// --around sets the span on each side of the press (5 by default). Enter is taken once the buffer
// holds that much, so the span before the press is always there to save.
import Foundation
import Rec

var output: URL?
var around = 5
var source = "test"
var sounds: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--source": source = arguments.popFirst() ?? ""
    case "--around": around = Int(arguments.popFirst() ?? "") ?? 0
    case "--audio": sounds.append(arguments.popFirst() ?? "")   // `test`, `default`, …
    default: output = URL(fileURLWithPath: argument)
    }
}

do throws(RecError) {
    guard let output, around > 0 else {
        throw RecError(kind: .invalidRequest, message: "usage: replay-buffer OUTPUT [--source SOURCE] [--audio SOUND] [--around SECONDS]")
    }
    var configuration = CaptureSession.Configuration(source: try CaptureSession.Source(parsing: source))
    for sound in sounds { configuration.sounds.append(try CaptureSession.Sound(parsing: sound)) }
    let session = try CaptureSession(configuration)   // no recordingURL: the replay buffer only
    let span = Duration.seconds(around)
    // Our own place in the frames, from the first one (taken before start()), keeping the newest 2.
    var frames = session.frames().makeAsyncIterator()
    try await session.start()
    while let frame = try await frames.next(), frame.time < span {}   // until the buffer holds `span`
    print("recording; press Enter to save the \(2 * around) s around the press")
    // readLine blocks, so it runs on a thread of its own, not on one of Swift's task threads.
    let pressed = await withCheckedContinuation { done in Thread.detachNewThread { done.resume(returning: readLine() != nil) } }
    // The press, on the session's clock: the time of the newest frame then.
    guard pressed, let now = try await frames.next()?.time else {
        throw RecError(kind: .failed, message: "the input or the source ended before Enter was pressed")
    }
    // The end is still `span` ahead: the save waits for it, then writes exactly that range.
    let report = try await session.replayBuffer.save(from: now - span, to: now + span, into: output)
    print(report)                                      // what `rec save` prints
    print(await session.stop())
} catch {
    FileHandle.standardError.write(Data("replay-buffer: \(error)\n".utf8))
    exit(error.exitStatus)
}
