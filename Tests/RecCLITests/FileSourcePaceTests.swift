import Foundation
import Media
import Testing
import TestPool

/// A regular file recorded in real time waits for a slow encoder instead of dropping frames, as
/// `ffmpeg -re` does: nothing is lost by waiting on a file, and a deep queue of decoded frames
/// pinned the decoder's buffers for the rest of a session (bench/README.md, core.sh). libavfilter's
/// `realtime` filter at a quarter of real time makes the encode thread slow on any machine.
@Suite(.blocking) struct FileSourcePaceTests {
    @Test func aSlowEncoderLosesNoFrameOfAFile() throws {
        let folder = try RecFolder()
        try folder.record("in.mkv", frames: 40, source: "test:320x240@30")
        let result = try folder.rec(["record", "--source", "file:in.mkv", "--pace", "realtime",
                                     "--filter", "realtime=speed=0.25", "-o", "out.mkv"])
        #expect(result.status == 0, "\(result.error)")
        let copy = try FrameReader.read(path: folder.file("out.mkv")).frames
        #expect(copy.map(\.stamp) == RecFolder.stamps(0..<40), "\(result.error)")
    }
}
