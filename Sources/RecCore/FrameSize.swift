/// A picture size in pixels, written "1280x720".
public struct FrameSize: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The largest side accepted, so `area` can never overflow.
    public static let maxSide = 1 << 20

    /// Parses "WIDTHxHEIGHT" (ASCII digits, both from 1 to `maxSide`); nil otherwise.
    public init?(_ text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
              let w = Int(parts[0]), let h = Int(parts[1]), (1...Self.maxSide).contains(w), (1...Self.maxSide).contains(h) else { return nil }
        self.init(width: w, height: h)
    }

    public var area: Int { width * height }
    public var description: String { "\(width)x\(height)" }

    /// Orders by area, then width.
    public static func < (a: FrameSize, b: FrameSize) -> Bool { (a.area, a.width) < (b.area, b.width) }
}
