import RecClient
import RecCore
import SessionControl
import Testing
import TestPool

/// `rec save`'s printer reads the save reply's typed fields.
@Suite(.blocking) struct SaveTextTests {
    @Test func saysWhereTheClipCameFromAndWhatWasReencoded() {
        let report = SaveReport(path: "/tmp/c.mkv", requested: ControlSpan(from: 1, to: 2), saved: ControlSpan(from: 1, to: 2),
                                frames: 30, source: .file, reencoded: 4, trailingHidden: 0, mode: .exact)
        let text = SaveText.text(report)
        #expect(text.contains("30 frames"), "\(text)")
        #expect(text.contains("from the file"), "\(text)")
        #expect(text.contains("4 frames re-encoded"), "\(text)")
        var copied = report
        (copied.source, copied.reencoded) = (.ring, 0)
        #expect(SaveText.text(copied).contains("from the ring"))
        #expect(!SaveText.text(copied).contains("re-encoded"))
        #expect(SaveText.json(report).contains(#""reencoded":4"#), "\(SaveText.json(report))")
    }
}
