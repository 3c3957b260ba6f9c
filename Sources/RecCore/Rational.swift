/// An exact fraction, used as a time base (seconds per tick) and as a frame rate.
///
/// Mirrors FFmpeg's `AVRational`; `Media` converts at the C boundary.
public struct Rational: Hashable, Sendable, CustomStringConvertible {
    public var num: Int32
    public var den: Int32

    public init(_ num: Int32, _ den: Int32) {
        self.num = num
        self.den = den
    }

    /// Microseconds: the capture clock's time base.
    public static let microseconds = Rational(1, 1_000_000)
    /// Milliseconds: Matroska's usual stream time base.
    public static let milliseconds = Rational(1, 1_000)

    public var doubleValue: Double { Double(num) / Double(den) }
    public var inverted: Rational { Rational(den, num) }
    public var description: String { "\(num)/\(den)" }
}
