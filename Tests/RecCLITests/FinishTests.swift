import Foundation
import Media
import Testing

/// Stopping a recording: a SIGKILL while the MP4 is being finished leaves the recording as it was
/// (fragmented, every frame, playable) and nothing beside it, hidden or not.
@Suite(.serialized) struct FinishTests {
    @Test func killDuringFinishLeavesThePlayableRecordingAndNoPartialFile() throws {
        var caught = 0
        for attempt in 0..<5 where caught == 0 {
            let folder = try RecBinary.temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/long.mp4"
            let process = try RecBinary.launch(["record", "--source", "test:320x240@30", "--frames", "900",
                                                "--pace", "off", "-o", path])
            let pid = process.processIdentifier
            // The finish writes a second file; kill as soon as rec has one open in the folder.
            watch: while process.isRunning {
                for fd in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? [] {
                    guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"),
                          target.hasPrefix(folder + "/"), target != path else { continue }
                    kill(pid, SIGKILL)
                    caught += 1
                    break watch
                }
                usleep(100)
            }
            process.waitUntilExit()
            let frames = try FrameReader.read(path: path).frames.map(\.stamp)
            #expect(frames == (0..<900).map { Optional($0) }, "attempt \(attempt): the recording lost frames")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["long.mp4"],
                    "attempt \(attempt): something was left beside the recording")
        }
        #expect(caught > 0, "never saw the finish under way; nothing was tested")
    }
}
