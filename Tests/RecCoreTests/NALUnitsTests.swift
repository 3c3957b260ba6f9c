import RecCore
import Testing

/// Annex B ↔ length-prefixed NAL units, and parameter sets out of avcC/hvcC headers.
@Suite struct NALUnitsTests {
    // A real-looking H.264 SPS/PPS/IDR (x264 at 320x240, High profile) and an HEVC VPS/SPS/PPS.
    static let sps: [UInt8] = [0x67, 0x64, 0x00, 0x0D, 0xAC, 0xD9, 0x41, 0x41, 0xFB, 0x01, 0x10, 0x00, 0x00, 0x03, 0x00, 0x10,
                               0x00, 0x00, 0x03, 0x03, 0xC0, 0xF1, 0x42, 0x99, 0x60]
    static let pps: [UInt8] = [0x68, 0xEB, 0xE3, 0xCB, 0x22, 0xC0]
    static let idr: [UInt8] = [0x65, 0x88, 0x84, 0x00, 0x33, 0xFF, 0xFE, 0xF6, 0xF0, 0xFE, 0x05, 0x36, 0x56, 0x04, 0x50]
    static let vps: [UInt8] = [0x40, 0x01, 0x0C, 0x01, 0xFF, 0xFF, 0x01, 0x60, 0x00, 0x00, 0x03, 0x00, 0x90, 0x00, 0x00, 0x03,
                               0x00, 0x00, 0x03, 0x00, 0x3C, 0x95, 0x98, 0x09]
    static let hevcSPS: [UInt8] = [0x42, 0x01, 0x01, 0x01, 0x60, 0x00, 0x00, 0x03, 0x00, 0x90, 0x00, 0x00, 0x03, 0x00, 0x00,
                                   0x03, 0x00, 0x3C, 0xA0, 0x0A, 0x08, 0x0F, 0x16, 0x59, 0x59, 0x52, 0x93, 0x0B]
    static let hevcPPS: [UInt8] = [0x44, 0x01, 0xC1, 0x72, 0xB4, 0x62, 0x40]

    static func be16(_ n: Int) -> [UInt8] { [UInt8(n >> 8), UInt8(n & 0xFF)] }

    @Test func splitsFourByteStartCodes() {
        let stream: [UInt8] = [0, 0, 0, 1] + Self.sps + [0, 0, 0, 1] + Self.pps + [0, 0, 0, 1] + Self.idr
        #expect(NALUnits.splitAnnexB(stream).map(Array.init) == [Self.sps, Self.pps, Self.idr])
    }

    @Test func splitsThreeByteAndMixedStartCodes() {
        let three: [UInt8] = [0, 0, 1] + Self.sps + [0, 0, 1] + Self.pps
        #expect(NALUnits.splitAnnexB(three).map(Array.init) == [Self.sps, Self.pps])
        let mixed: [UInt8] = [0, 0, 0, 1] + Self.sps + [0, 0, 1] + Self.pps + [0, 0, 0, 1] + Self.idr
        #expect(NALUnits.splitAnnexB(mixed).map(Array.init) == [Self.sps, Self.pps, Self.idr])
    }

    /// `00 00 03` is emulation prevention inside a unit (the SPS above has two), not a boundary.
    @Test func emulationPreventionIsNotAStartCode() {
        let units = NALUnits.splitAnnexB([0, 0, 1] + Self.sps)
        #expect(units.count == 1)
        #expect(Array(units[0]) == Self.sps)
    }

    @Test func splitEdgeCases() {
        #expect(NALUnits.splitAnnexB([]).isEmpty)
        #expect(NALUnits.splitAnnexB([0x65, 1, 2, 3]).isEmpty, "no start code, no units")
        #expect(NALUnits.splitAnnexB([0, 0, 0, 1]).isEmpty, "a start code with nothing after it")
        #expect(NALUnits.splitAnnexB([0, 0, 1, 0x09, 0xF0, 0, 0, 0, 1]).map(Array.init) == [[0x09, 0xF0]])
        // Slices keep their place in the input (indices into the original array).
        let units = NALUnits.splitAnnexB([0, 0, 1, 0xAA, 0, 0, 1, 0xBB])
        #expect(units.map(\.startIndex) == [3, 7])
    }

    @Test func isAnnexB() {
        #expect(NALUnits.isAnnexB([0, 0, 1, 0x65]))
        #expect(NALUnits.isAnnexB([0, 0, 0, 1, 0x65]))
        #expect(!NALUnits.isAnnexB([0, 0, 0, 15, 0x65]), "a 4-byte length of 15 is length-prefixed")
        #expect(!NALUnits.isAnnexB([0, 0, 2]))
        #expect(!NALUnits.isAnnexB([0, 0]))
        #expect(!NALUnits.isAnnexB([]))
    }

    @Test(arguments: [1, 2, 4])
    func lengthPrefixedWritesBigEndianSizes(size: Int) {
        let units = [Self.sps[...], Self.pps[...]]
        func prefix(_ n: Int) -> [UInt8] { (0..<size).reversed().map { UInt8(truncatingIfNeeded: n >> (8 * $0)) } }
        #expect(NALUnits.lengthPrefixed(units, lengthSize: size) == prefix(Self.sps.count) + Self.sps + prefix(Self.pps.count) + Self.pps)
    }

    @Test func lengthPrefixedLongUnitAndEmptyInput() {
        let long = [UInt8](repeating: 0x41, count: 300)
        #expect(Array(NALUnits.lengthPrefixed([long[...]], lengthSize: 2).prefix(3)) == [0x01, 0x2C, 0x41])
        #expect(Array(NALUnits.lengthPrefixed([long[...]], lengthSize: 4).prefix(5)) == [0, 0, 0x01, 0x2C, 0x41])
        #expect(NALUnits.lengthPrefixed([ArraySlice<UInt8>](), lengthSize: 4).isEmpty)
    }

    /// Annex B in, MP4-style out: what the splicer does to a re-encoded packet.
    @Test func annexBToLengthPrefixed() {
        let annexB: [UInt8] = [0, 0, 0, 1, 0x09, 0xF0] + [0, 0, 1] + Self.idr
        let out = NALUnits.lengthPrefixed(NALUnits.splitAnnexB(annexB), lengthSize: 4)
        #expect(out == [0, 0, 0, 2, 0x09, 0xF0, 0, 0, 0, UInt8(Self.idr.count)] + Self.idr)
    }

    static func avcC(lengthSizeMinusOne: UInt8, sps: [[UInt8]], pps: [[UInt8]], trailer: [UInt8] = []) -> [UInt8] {
        var e: [UInt8] = [1, 0x64, 0x00, 0x0D, 0xFC | lengthSizeMinusOne, 0xE0 | UInt8(sps.count)]
        for s in sps { e += be16(s.count) + s }
        e.append(UInt8(pps.count))
        for p in pps { e += be16(p.count) + p }
        return e + trailer
    }

    @Test(arguments: [(3 as UInt8, 4), (1, 2), (0, 1)])
    func avcCParameterSets(lengthSizeMinusOne: UInt8, lengthSize: Int) throws {
        // High profile avcC carries chroma format and bit depth bytes after the PPS.
        let e = Self.avcC(lengthSizeMinusOne: lengthSizeMinusOne, sps: [Self.sps], pps: [Self.pps], trailer: [0xFD, 0xF8, 0xF8, 0x00])
        let info = try #require(NALUnits.parameterSets(extradata: e, hevc: false))
        #expect(info.lengthSize == lengthSize)
        #expect(info.sets.map(Array.init) == [Self.sps, Self.pps])
    }

    @Test func avcCWithTwoSPSAndTwoPPS() throws {
        let sps2 = Self.sps.dropLast(3) + [0x80]
        let pps2: [UInt8] = [0x68, 0xCE, 0x3C, 0x80]
        let e = Self.avcC(lengthSizeMinusOne: 3, sps: [Self.sps, Array(sps2)], pps: [Self.pps, pps2])
        let info = try #require(NALUnits.parameterSets(extradata: e, hevc: false))
        #expect(info.sets.map(Array.init) == [Self.sps, Array(sps2), Self.pps, pps2])
    }

    /// Without the PPS count byte the SPS are still returned.
    @Test func avcCEndingAfterSPS() throws {
        var e: [UInt8] = [1, 0x64, 0x00, 0x0D, 0xFF, 0xE1] + Self.be16(Self.sps.count) + Self.sps
        let info = try #require(NALUnits.parameterSets(extradata: e, hevc: false))
        #expect(info.sets.map(Array.init) == [Self.sps])
        e.removeLast()
        #expect(NALUnits.parameterSets(extradata: e, hevc: false) == nil, "an SPS cut short")
    }

    @Test func truncatedAvcCIsNil() {
        var e = Self.avcC(lengthSizeMinusOne: 3, sps: [Self.sps], pps: [Self.pps])
        e.removeLast()
        #expect(NALUnits.parameterSets(extradata: e, hevc: false) == nil, "a PPS cut short")
        #expect(NALUnits.parameterSets(extradata: [1, 0x64, 0, 0x0D, 0xFF, 0xE1], hevc: false) == nil, "six bytes")
    }

    static func hvcC(lengthSizeMinusOne: UInt8, arrays: [(type: UInt8, units: [[UInt8]])]) -> [UInt8] {
        // configurationVersion 1, Main profile, level 60; byte 21: constant frame rate 0, 1 temporal layer, length size.
        var e: [UInt8] = [1, 0x01, 0x60, 0x00, 0x00, 0x00, 0x90, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3C, 0xF0, 0x00, 0xFC,
                          0xFD, 0xF8, 0xF8, 0x00, 0x00, 0x0C | lengthSizeMinusOne, UInt8(arrays.count)]
        for array in arrays {
            e += [0x80 | array.type] + be16(array.units.count)
            for u in array.units { e += be16(u.count) + u }
        }
        return e
    }

    @Test(arguments: [(3 as UInt8, 4), (1, 2)])
    func hvcCParameterSets(lengthSizeMinusOne: UInt8, lengthSize: Int) throws {
        let e = Self.hvcC(lengthSizeMinusOne: lengthSizeMinusOne,
                          arrays: [(32, [Self.vps]), (33, [Self.hevcSPS]), (34, [Self.hevcPPS])])
        let info = try #require(NALUnits.parameterSets(extradata: e, hevc: true))
        #expect(info.lengthSize == lengthSize)
        #expect(info.sets.map(Array.init) == [Self.vps, Self.hevcSPS, Self.hevcPPS])
    }

    @Test func hvcCArrayWithSeveralUnitsAndTruncation() throws {
        let sei: [UInt8] = [0x4E, 0x01, 0x05, 0x10, 0x80]
        var e = Self.hvcC(lengthSizeMinusOne: 3, arrays: [(32, [Self.vps]), (33, [Self.hevcSPS]), (34, [Self.hevcPPS]),
                                                          (39, [sei, sei])])
        let info = try #require(NALUnits.parameterSets(extradata: e, hevc: true))
        #expect(info.sets.map(Array.init) == [Self.vps, Self.hevcSPS, Self.hevcPPS, sei, sei])
        e.removeLast()
        #expect(NALUnits.parameterSets(extradata: e, hevc: true) == nil)
        #expect(NALUnits.parameterSets(extradata: Array(e.prefix(22)), hevc: true) == nil, "shorter than the fixed header")
    }

    @Test(arguments: [false, true])
    func annexBExtradataIsNil(hevc: Bool) {
        let annexB: [UInt8] = hevc
            ? [0, 0, 0, 1] + Self.vps + [0, 0, 0, 1] + Self.hevcSPS + [0, 0, 0, 1] + Self.hevcPPS
            : [0, 0, 0, 1] + Self.sps + [0, 0, 0, 1] + Self.pps
        #expect(NALUnits.parameterSets(extradata: annexB, hevc: hevc) == nil)
        #expect(NALUnits.parameterSets(extradata: [], hevc: hevc) == nil)
    }
}
