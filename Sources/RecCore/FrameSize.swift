/// A picture size in pixels, written "1280x720".
package struct FrameSize: Hashable, Sendable, Comparable, CustomStringConvertible {
    package var width: Int
    package var height: Int

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The largest side accepted, so `area` can never overflow.
    package static let maxSide = 1 << 20

    /// Parses "WIDTHxHEIGHT" (ASCII digits, both from 1 to `maxSide`); nil otherwise.
    package init?(_ text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
              let w = Int(parts[0]), let h = Int(parts[1]), (1...Self.maxSide).contains(w), (1...Self.maxSide).contains(h) else { return nil }
        self.init(width: w, height: h)
    }

    package var area: Int { width * height }
    package var description: String { "\(width)x\(height)" }

    /// Orders by area, then width.
    package static func < (a: FrameSize, b: FrameSize) -> Bool { (a.area, a.width) < (b.area, b.width) }
}
