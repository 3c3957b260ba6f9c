/// Byte counts as people write them: `1GB`, `256M`, `1.5GiB`, `500MB`, `4096`.
/// K, M, G, T are powers of 1024 whether or not an `i` or `B` follows (memory sizes, as `free -h`).
package enum ByteSize {
    package static func parse(_ text: String) throws(RecError) -> Int {
        var t = text.filter { !$0.isWhitespace }.uppercased()
        if t.hasSuffix("IB") { t.removeLast(2) } else if t.hasSuffix("B") { t.removeLast() }
        var scale = 1.0
        if let unit = t.last, let power = ["K": 1.0, "M": 2.0, "G": 3.0, "T": 4.0][String(unit)] {
            scale = pow1024(power)
            t.removeLast()
        }
        guard let value = Double(t), value > 0, value * scale >= 1, value * scale < 9e18 else {
            throw .usage("'\(text)' is not a size; write it like 512M, 1G or 1.5GB")
        }
        return Int(value * scale)
    }

    static func pow1024(_ n: Double) -> Double {
        var r = 1.0
        for _ in 0..<Int(n) { r *= 1024 }
        return r
    }

    /// `1.5 GiB`, `256 MiB`, `12 KiB`, `800 B`: one decimal below 100, none when it is whole,
    /// in the largest unit the rounded value reaches.
    package static func text(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        let d = Double(bytes)
        for (unit, power) in [("GiB", 3.0), ("MiB", 2.0), ("KiB", 1.0)] {
            let v = d / pow1024(power)
            let shown = v >= 100 ? v.rounded() : (v * 10).rounded() / 10
            guard shown >= 1 else { continue }
            return (shown == shown.rounded() ? String(Int(shown)) : String(shown)) + " " + unit
        }
        return "\(bytes) B"
    }
}
