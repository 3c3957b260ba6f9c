/// H.264/HEVC bitstream plumbing for splicing re-encoded frames into a copied stream: MP4 and
/// Matroska store NAL units length-prefixed with parameter sets in the codec header (avcC/hvcC),
/// while a re-encoder without a global header writes Annex B with its own parameter sets in-band.
package enum NALUnits {
    /// Splits an Annex B byte stream (00 00 01 / 00 00 00 01 start codes) into NAL units.
    package static func splitAnnexB(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var units: [ArraySlice<UInt8>] = []
        var i = 0
        var start: Int? = nil
        while i + 2 < bytes.count {
            if bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1 {
                if let s = start {
                    var end = i
                    while end > s, bytes[end - 1] == 0 { end -= 1 }  // trailing zero of a 4-byte code
                    units.append(bytes[s..<end])
                }
                i += 3
                start = i
            } else {
                i += 1
            }
        }
        if let s = start, s < bytes.count { units.append(bytes[s...]) }
        return units
    }

    /// Whether the bytes begin with an Annex B start code.
    package static func isAnnexB(_ bytes: [UInt8]) -> Bool {
        (bytes.count >= 3 && bytes[0] == 0 && bytes[1] == 0 && bytes[2] == 1)
            || (bytes.count >= 4 && bytes[0] == 0 && bytes[1] == 0 && bytes[2] == 0 && bytes[3] == 1)
    }

    /// NAL units, each prefixed by its length in `lengthSize` big-endian bytes.
    package static func lengthPrefixed<S: Sequence>(_ units: S, lengthSize: Int) -> [UInt8] where S.Element == ArraySlice<UInt8> {
        var out: [UInt8] = []
        for unit in units {
            let n = unit.count
            for k in (0..<lengthSize).reversed() { out.append(UInt8(truncatingIfNeeded: n >> (8 * k))) }
            out.append(contentsOf: unit)
        }
        return out
    }

    /// The NAL length size and parameter sets (SPS, PPS; for HEVC also VPS) of an `avcC` or
    /// `hvcC` codec header; nil if the header is not in that form (Annex B extradata, say).
    package static func parameterSets(extradata e: [UInt8], hevc: Bool) -> (lengthSize: Int, sets: [ArraySlice<UInt8>])? {
        guard e.count > 6, e[0] == 1 else { return nil }
        var sets: [ArraySlice<UInt8>] = []
        func take(_ at: inout Int) -> Bool {
            guard at + 2 <= e.count else { return false }
            let n = Int(e[at]) << 8 | Int(e[at + 1])
            at += 2
            guard at + n <= e.count else { return false }
            sets.append(e[at..<(at + n)])
            at += n
            return true
        }
        if hevc {
            guard e.count >= 23 else { return nil }
            let lengthSize = Int(e[21] & 3) + 1
            var at = 23
            for _ in 0..<Int(e[22]) {
                guard at + 3 <= e.count else { return nil }
                let count = Int(e[at + 1]) << 8 | Int(e[at + 2])
                at += 3
                for _ in 0..<count { guard take(&at) else { return nil } }
            }
            return (lengthSize, sets)
        }
        let lengthSize = Int(e[4] & 3) + 1
        var at = 6
        for _ in 0..<Int(e[5] & 0x1F) { guard take(&at) else { return nil } }
        guard at < e.count else { return (lengthSize, sets) }
        let pps = Int(e[at])
        at += 1
        for _ in 0..<pps { guard take(&at) else { return nil } }
        return (lengthSize, sets)
    }
}
