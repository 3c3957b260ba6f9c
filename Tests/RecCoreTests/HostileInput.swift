/// SplitMix64: a tiny seeded generator, so generated inputs are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Inputs chosen to break parsers: extremes of Int64 and Double, huge digit strings, empty,
/// unicode look-alike digits, and seeded random mixes of the characters the parsers care about.
enum HostileInput {
    static let fixed: [String] = [
        "", " ", "0", "-0", "+0", "+", "-", ".", "..", ":", "::", "1:", ":1", "1::2", "1:60", "1:2:3:4",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "18446744073709551616",
        String(repeating: "9", count: 5_000), "0." + String(repeating: "9", count: 400), "1e300", "-1e300",
        "1e-300", "1e999", "nan", "NaN", "-nan", "inf", "-inf", "infinity", "0x10", "0b1", "1_000",
        "1h1h", "1ms1s", "1s1h", "2562047788h", "2562047789h", "153722867281m", "9223372036854s", "9223372036855s",
        "9223372036854775807us", "9223372036854775808us", "+9223372036854775807us", "-9223372036854775807us",
        "+2562047788h", "-2562047789h", "99:59:59.999999999999999", "99999999999999999999:00", "2562047788:00:00",
        "\u{663}s", "\u{FF11}\u{FF12}s", "1.5.5s", "1..5s", ".5s", "5.s", "🎥", "\u{0}", "\u{0}1s", "1s\u{0}",
        "now", "NOW", "+now", "-now", "now+1s", " 12s ", "\t1s",
        "9999-12-31T23:59:59Z", "0000-01-01T00:00:00Z", "0000-01-01T00:00:00-23:59", "2026-02-30T00:00:00",
        "2026-11-29T14:03:05." + String(repeating: "9", count: 300) + "+23:59", "2026-11-29T14:03:05-99:99",
        "2026-11-29T24:00:00", "2026-11-29T14:03:05+", "2026-11-29T14:03", "2026-11-29",
        "1G", "1T", "8E", "9999999T", "8388608T", "1e30G", "-1G", "0.0000001K", "1.5GiB", "nanG", "infT", "1GiBB",
        "test:99999999999999999999x2@30", "test:320x240@99999999999999999999", "test:-2x-2@-1", "test:320x240@",
        "test:@", "test:x", "test:320x240@30@30", "file:", "v4l2:", "/dev/", "test:16x16@1000",
        "9223372036854775807x9223372036854775807", "4611686018427387904x4", "0x0", "-1x-1", "1x",
        "../etc", ".", "..", "a/b", String(repeating: "a", count: 64), String(repeating: "a", count: 65), "é", "a b",
    ]

    static let alphabet = Array("0123456789000999.:+-hmsuTZ ,x@eE_/\u{0}é٣🎥nowiGKMBT")

    /// `count` strings of 0 to 40 characters drawn from `alphabet`, and long digit runs.
    static func generated(count: Int, seed: UInt64) -> [String] {
        var rng = SeededGenerator(seed: seed)
        return (0..<count).map { i in
            if i % 10 == 0 { return String(repeating: "9", count: Int.random(in: 18...60, using: &rng)) + ["", "s", "us", "h", "G"].randomElement(using: &rng)! }
            return String((0..<Int.random(in: 0...40, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
        }
    }

    static let all = fixed + generated(count: 2_000, seed: 13)

    /// Numbers for JSON fields: Int64 and Double extremes, edges of the accepted ranges, and
    /// seeded random bit patterns.
    static func numbers(seed: UInt64) -> [String] {
        let edges: [Double] = [0, -0.0, 1, -1, 1e9, 1e9 + 1, 1e10, 1e10 + 1, 9.2e12, -9.2e12, 1e18, -1e18,
                               Double(Int64.max), Double(Int64.min), 1e300, -1e300, .greatestFiniteMagnitude,
                               -.greatestFiniteMagnitude, .leastNonzeroMagnitude, -.leastNonzeroMagnitude]
        var rng = SeededGenerator(seed: seed)
        let random = (0..<300).map { _ in Double(bitPattern: rng.next()) }.filter(\.isFinite)
        return (edges + random).map { "\($0)" }
            + ["9223372036854775807", "-9223372036854775808", "1e999", "-1e999", String(repeating: "9", count: 400)]
    }
}
