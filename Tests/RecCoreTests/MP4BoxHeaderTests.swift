import RecCore
import Testing

/// Box headers as the file walkers read them: 32-bit and 64-bit sizes, "to the end", and short
/// or impossible ones.
@Suite struct MP4BoxHeaderTests {
    @Test func sizesAndTypes() {
        #expect(MP4BoxHeader([0, 0, 0, 24] + Array("ftyp".utf8), remaining: 100) == MP4BoxHeader(type: "ftyp", size: 24))
        let large: [UInt8] = [0, 0, 0, 1] + Array("mdat".utf8) + [0, 0, 0, 1, 0, 0, 0, 0]
        #expect(MP4BoxHeader(large, remaining: 1 << 40) == MP4BoxHeader(type: "mdat", size: 1 << 32))
        #expect(MP4BoxHeader([0, 0, 0, 0] + Array("mdat".utf8), remaining: 5000) == MP4BoxHeader(type: "mdat", size: 5000))
    }

    @Test func malformedHeadersAreNil() {
        #expect(MP4BoxHeader([0, 0, 0, 24, 0x66], remaining: 100) == nil, "cut short")
        #expect(MP4BoxHeader([0, 0, 0, 1] + Array("mdat".utf8), remaining: 100) == nil, "64-bit size missing")
        #expect(MP4BoxHeader([0, 0, 0, 7] + Array("free".utf8), remaining: 100) == nil, "smaller than its header")
    }
}
