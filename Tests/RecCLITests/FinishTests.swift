import Foundation
import Media
import Testing
import TestFileWatch
import TestPool

/// Stopping a recording: a SIGKILL while the MP4 is being finished leaves the recording as it was
/// (fragmented, every frame, playable) and nothing beside it, hidden or not.
@Suite(.blocking, .serialized) struct FinishTests {
    @Test func killDuringFinishLeavesThePlayableRecordingAndNoPartialFile() throws {
        var caught = 0
        for attempt in 0..<5 where caught == 0 {
            let folder = try RecBinary.temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/long.mp4"
            // Woken by the recording's writes and the finish's reads of it (inotify), not a clock.
            let events = FileWatch([folder], mask: UInt32(IN_MODIFY | IN_ACCESS | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE))
            let process = try RecBinary.launch(["record", "--source", "test:320x240@30", "--frames", "900",
                                                "--pace", "off", "-o", path])
            let pid = process.processIdentifier
            var recording: UInt64?
            // The finish writes a second file; kill as soon as rec has one open in the folder.
            _ = events.wait(timeout: 120) {
                for fd in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? [] {
                    guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"),
                          target.hasPrefix(folder + "/"), target != path else { continue }
                    kill(pid, SIGKILL)
                    caught += 1
                    return true
                }
                // Missed: the finished file was renamed over the recording, or rec has ended.
                var info = stat()
                if stat(path, &info) == 0 {
                    if let recording, recording != UInt64(info.st_ino) { return true }
                    recording = UInt64(info.st_ino)
                }
                return !process.isRunning
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
