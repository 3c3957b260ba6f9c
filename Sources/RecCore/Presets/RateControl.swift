/// How an encoder spends bits: one of constant quality (`crf`), a target bitrate, or a fixed
/// quantiser (`qscale`, for MJPEG and MPEG-4).
package enum RateControl: Sendable, Equatable {
    /// Constant rate factor: lower is better quality and bigger files.
    case crf(Double)
    /// Target average bitrate in bits per second.
    case bitrate(Int)
    /// Fixed quantiser, 1 (best) to 31 (worst).
    case qscale(Int)

    /// FFmpeg's `FF_QP2LAMBDA`: a qscale becomes `global_quality = qscale * 118`.
    package static let qp2lambda = 118

    /// Parses a bitrate as FFmpeg writes them: "4M", "2500k", "1.5M", "800000" (decimal
    /// multiples: k = 1000, M = 10⁶, G = 10⁹). Returns nil for anything else.
    package static func parseBitrate(_ text: String) -> Int? {
        var digits = Substring(text)
        var scale = 1.0
        switch digits.last {
        case "k", "K": scale = 1e3
        case "m", "M": scale = 1e6
        case "g", "G": scale = 1e9
        default: break
        }
        if scale != 1 { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let value = Double(digits), value.isFinite else { return nil }
        let bits = (value * scale).rounded()
        return bits <= Double(Int32.max) * 8 ? Int(bits) : nil
    }

    /// A bitrate as people write it: 4000000 → "4M", 2500000 → "2500k", 123 → "123".
    package static func formatBitrate(_ bits: Int) -> String {
        if bits >= 1_000_000, bits % 1_000_000 == 0 { return "\(bits / 1_000_000)M" }
        if bits >= 1_000, bits % 1_000 == 0 { return "\(bits / 1_000)k" }
        return "\(bits)"
    }
}

