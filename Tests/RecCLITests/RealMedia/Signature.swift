import Foundation

/// A frame's fingerprint: its luma averaged over a 32 × 24 grid, normalised to mean 0 and
/// standard deviation 1, so frames decoded by different players (their own scalers and range
/// conversions) still match the source frame they show, and re-encoded frames match theirs.
struct Signature {
    static let columns = 32, rows = 24
    var values: [Double]

    /// From `width × height` 8-bit luma.
    init(gray: ArraySlice<UInt8>, width: Int, height: Int) {
        let bw = width / Self.columns, bh = height / Self.rows
        var cells: [Double] = []
        let base = gray.startIndex
        for y in 0..<Self.rows {
            for x in 0..<Self.columns {
                var sum = 0
                for j in 0..<bh {
                    let row = base + (y * bh + j) * width + x * bw
                    for i in 0..<bw { sum += Int(gray[row + i]) }
                }
                cells.append(Double(sum) / Double(bw * bh))
            }
        }
        self.init(raw: cells)
    }

    /// From already averaged cells (Chromium's page computes them).
    init(raw cells: [Double]) {
        let mean = cells.reduce(0, +) / Double(cells.count)
        let deviation = (cells.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(cells.count)).squareRoot()
        values = cells.map { ($0 - mean) / max(deviation, 1e-6) }
    }

    /// The sum of the cells' absolute differences (a plain loop: tests run unoptimised builds,
    /// where `zip` and `reduce` cost several times as much).
    func distance(to other: Signature) -> Double {
        values.withUnsafeBufferPointer { a in
            other.values.withUnsafeBufferPointer { b in
                var sum = 0.0
                for i in 0..<min(a.count, b.count) { sum += abs(a[i] - b[i]) }
                return sum
            }
        }
    }

    /// Splits raw gray frames.
    static func frames(_ data: Data, width: Int, height: Int) -> [Signature] {
        let bytes = [UInt8](data), size = width * height
        return stride(from: 0, to: bytes.count - size + 1, by: size).map {
            Signature(gray: bytes[$0..<($0 + size)], width: width, height: height)
        }
    }

    /// For each frame, the index of the source frame it is closest to.
    static func match(_ frames: [Signature], in source: [Signature]) -> [Int] {
        frames.map { frame in
            source.indices.min { frame.distance(to: source[$0]) < frame.distance(to: source[$1]) } ?? -1
        }
    }
}
