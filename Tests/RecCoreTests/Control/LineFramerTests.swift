import Testing
import RecCore

@Suite("LineFramer")
struct LineFramerTests {
    private func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test("lines split across reads come out whole")
    func splitAcrossReads() {
        var framer = LineFramer()
        #expect(framer.feed(bytes("{\"a\":")) == [])
        #expect(framer.hasPartialLine)
        #expect(framer.feed(bytes("1}\n{\"b\"")) == [.line(bytes("{\"a\":1}"))])
        #expect(framer.feed(bytes(":2}\n")) == [.line(bytes("{\"b\":2}"))])
        #expect(!framer.hasPartialLine)
    }

    @Test("several lines in one read, CRLF and empty lines")
    func severalLines() {
        var framer = LineFramer()
        let events = framer.feed(bytes("one\r\n\n\ntwo\nthree\n"))
        #expect(events == [.line(bytes("one")), .line(bytes("two")), .line(bytes("three"))])
    }

    @Test("a line of exactly the limit is accepted, one byte more is not")
    func limitBoundary() {
        var framer = LineFramer(maxLineBytes: 4)
        #expect(framer.feed(bytes("abcd\n")) == [.line(bytes("abcd"))])
        #expect(framer.feed(bytes("abcde\nok\n")) == [.oversized(limit: 4), .line(bytes("ok"))])
    }

    @Test("an oversized line is reported once and skipped to its newline across reads")
    func oversizedResync() {
        var framer = LineFramer(maxLineBytes: 8)
        #expect(framer.feed(bytes("0123")) == [])
        #expect(framer.feed(bytes("45678")) == [.oversized(limit: 8)])
        #expect(framer.feed(bytes("more junk without end")) == [])
        #expect(framer.feed(bytes("junk\n{\"v\":1}\n")) == [.line(bytes("{\"v\":1}"))])
    }

    @Test("end of stream delivers a last line without newline, but not a discarded one")
    func finish() {
        var framer = LineFramer(maxLineBytes: 8)
        _ = framer.feed(bytes("tail"))
        #expect(framer.finish() == .line(bytes("tail")))
        #expect(framer.finish() == nil)
        _ = framer.feed(bytes("far too long"))
        #expect(framer.finish() == nil)
        #expect(framer.feed(bytes("next\n")) == [.line(bytes("next"))])
    }

    @Test("a byte-at-a-time stream frames the same as one read")
    func byteAtATime() {
        let text = bytes("alpha\nbeta-is-long\ngamma\n")
        var whole = LineFramer(maxLineBytes: 6)
        var trickle = LineFramer(maxLineBytes: 6)
        let expected = whole.feed(text)
        let got = text.flatMap { trickle.feed([$0]) }
        #expect(got == expected)
        #expect(expected == [.line(bytes("alpha")), .oversized(limit: 6), .line(bytes("gamma"))])
    }
}
