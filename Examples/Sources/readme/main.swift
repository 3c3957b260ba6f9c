// The program in the README's "Use it from Swift": built and run by scripts/examples.sh so it stays true.
import Foundation
import Rec

do throws(RecError) {
    // The built-in stand-in camera; .camera(URL(fileURLWithPath: "/dev/video0")), try .network(url)
    // or .screen work the same.
    let session = try CaptureSession(.init(source: .testPattern))
    session.onFrame { frame in          // on the capture thread, for every frame, before it is encoded
        if frame.number % 30 == 0 { print("frame \(frame.number) captured at \(frame.time)") }
    }
    try await session.start()           // returns once the first frame is in
    // Exactly the frames from second 1 to second 3, from the replay buffer, while it records on:
    // the save waits until the session has recorded them.
    let clip = try await session.replayBuffer.save(from: .seconds(1), to: .seconds(3),
                                                   into: URL(fileURLWithPath: "clip.mp4"), overwrite: true)
    print(clip)                         // the report `rec save` prints
    print(try await session.capturePhoto(into: URL(fileURLWithPath: "still.jpg"), overwrite: true))
    print(await session.stop())         // the summary `rec stop` prints
} catch {
    print("rec: \(error)")              // what went wrong, in this API's words, and its cause
    exit(error.exitStatus)
}
