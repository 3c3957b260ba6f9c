/// The frame number drawn into a picture, so a frame can be recognised after any round trip through
/// lossy encoders: a band across the top of the luma plane of 34 cells — a white start cell, 24
/// bits of the number, 8 bits of check, a black end cell — each bright (235) for 1 and dark (16)
/// for 0. Reading takes the mean of each cell's middle and rejects a band whose check fails.
package enum FrameStamp {
    static let cells = 34
    package static let maxValue = (1 << 24) - 1

    /// The band's geometry for a picture width: cell size in pixels and band height.
    static func geometry(width: Int, height: Int) -> (cell: Int, bandHeight: Int)? {
        let cell = width / cells
        guard cell >= 4, height >= cell else { return nil }
        return (cell, min(cell, height))
    }

    static func check(_ v: Int) -> Int {
        ((v & 0xFF) ^ ((v >> 8) & 0xFF) ^ ((v >> 16) & 0xFF) ^ 0xA5) & 0xFF
    }

    static func bits(_ value: Int) -> [Bool] {
        let v = value & maxValue
        var bits = [true]
        for i in (0..<24).reversed() { bits.append(v >> i & 1 == 1) }
        let c = check(v)
        for i in (0..<8).reversed() { bits.append(c >> i & 1 == 1) }
        bits.append(false)
        return bits
    }

    /// Draws `value` (mod 2^24) into an 8-bit luma plane.
    package static func draw(_ value: Int, luma: UnsafeMutablePointer<UInt8>, bytesPerRow: Int, width: Int, height: Int) {
        guard let g = geometry(width: width, height: height) else { return }
        for (i, bit) in bits(value).enumerated() {
            let level: UInt8 = bit ? 235 : 16
            for y in 0..<g.bandHeight {
                (luma + y * bytesPerRow + i * g.cell).update(repeating: level, count: g.cell)
            }
        }
    }

    /// Reads the number back from an 8-bit luma plane; nil if there is no valid stamp.
    package static func read(luma: UnsafePointer<UInt8>, bytesPerRow: Int, width: Int, height: Int) -> Int? {
        guard let g = geometry(width: width, height: height) else { return nil }
        let margin = g.cell / 4
        var bits: [Bool] = []
        for i in 0..<cells {
            var sum = 0, count = 0
            for y in margin..<(g.bandHeight - margin) {
                let row = luma + y * bytesPerRow + i * g.cell
                for x in margin..<(g.cell - margin) { sum += Int(row[x]); count += 1 }
            }
            bits.append(count > 0 && sum / count >= 126)
        }
        guard bits.first == true, bits.last == false else { return nil }
        var v = 0
        for b in bits[1...24] { v = v << 1 | (b ? 1 : 0) }
        var c = 0
        for b in bits[25...32] { c = c << 1 | (b ? 1 : 0) }
        return c == check(v) ? v : nil
    }
}
