/// Placeholder until the helper's version lands (same API).
public struct ReconnectBackoff: Sendable {
    private var attempt = 0
    public init() {}
    public mutating func next(now: Double) -> Double {
        attempt += 1
        return min(10, 0.5 * Double(1 << min(attempt - 1, 5)))
    }
    public mutating func succeeded(now: Double) { attempt = 0 }
}
