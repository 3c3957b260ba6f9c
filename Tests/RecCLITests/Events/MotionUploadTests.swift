import Foundation
import Testing
import TestServers
import TestPool

/// Issue 40: a motion index travels with its segment, and a clip saved on motion is copied off
/// the box, through the real rclone to a real WebDAV server on loopback (UploadBox). The source is
/// MQTTSessionTests' drawn file: a square moving from 3 s to 5 s.
@Suite(.blocking) struct MotionUploadTests {
    @Test func indexesTravelWithTheirSegmentsAndMotionClipsAreCopied() throws {
        let box = try UploadBox()
        let source = try MQTTSessionTests.motionFile(at: box.path("motion.mp4"))
        let start = try box.rec(["start", "--source", "file:" + source, "--motion", "--on-motion", "save", "--pre-roll", "1s",
                                 "--post-roll", "1s", "--motion-clips", box.path("motion-%H-%M-%S.mp4"), "--segment", "4s",
                                 "-o", "seg.mkv", "--upload", "dav:cams"])
        try #require(start.status == 0, "rec start: \(start.error)")
        let pid = try box.pid()
        let exit = Observe.exit(of: pid)
        // The event (3.2–5.0 s) ends after 2 s of quiet; its clip (2.2–6.0 s) is saved then.
        #expect(box.waitForLog("motion: saved"), "\(box.log())")
        let waited = try box.rec(["status", "--json", "--wait-until", "9", "--timeout", "60s"])
        #expect(waited.status == 0, "\(waited.error)")
        try #require(try box.rec(["stop"]).status == 0)
        #expect(exit?.wait(timeout: .seconds(60)) == true)
        let segments = box.local("seg").filter { $0.hasSuffix(".mkv") }
        let indexes = box.local("seg").filter { $0.hasSuffix(".mkv.motion.jsonl") }
        let clips = box.local("motion-").filter { $0.hasSuffix(".mp4") }
        #expect(segments.count >= 3 && indexes == segments.map { $0 + ".motion.jsonl" }, "\(box.local("seg"))")
        #expect(clips.count == 1, "\(box.local("motion-"))")
        #expect(box.waitForArrival(segments + indexes + clips), "\(box.remoteFiles())\n\(box.log())")
        for name in indexes + clips {
            #expect(FileManager.default.contentsEqual(atPath: box.path(name), andPath: box.remote + "/" + name), "\(name)")
        }
        // Each index starts with its header; the event is in the segment it began in.
        let lines = indexes.map { (try? String(contentsOfFile: box.path($0), encoding: .utf8)) ?? "" }
        #expect(lines.allSatisfy { $0.hasPrefix(#"{"rate":5,"rec_motion":1"#) }, "\(lines)")
        #expect(lines.filter { $0.contains(#""start":1"#) }.count == 1, "\(lines)")
    }
}
