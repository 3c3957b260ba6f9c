/// An exact fraction, used as a time base (seconds per tick) and as a frame rate.
///
/// Mirrors FFmpeg's `AVRational`; `Media` converts at the C boundary.
package struct Rational: Hashable, Sendable, CustomStringConvertible {
    package var num: Int32
    package var den: Int32

    package init(_ num: Int32, _ den: Int32) {
        self.num = num
        self.den = den
    }

    /// Microseconds: the capture clock's time base. Computed, as the other constants packets use
    /// (`StreamID.video`, `Timestamp.zero`): a stored static is a lazily made global, reached
    /// through a call on every use, several times for each packet.
    package static var microseconds: Rational { Rational(1, 1_000_000) }
    /// Milliseconds: Matroska's usual stream time base.
    package static var milliseconds: Rational { Rational(1, 1_000) }

    package var doubleValue: Double { Double(num) / Double(den) }
    package var inverted: Rational { Rational(den, num) }
    package var description: String { "\(num)/\(den)" }
}
