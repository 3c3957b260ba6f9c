/// Placeholder until the helper's version lands (same API).
public struct CameraTimeline: Sendable {
    public enum Event: Sendable, Equatable {
        case jumpedForward(Timestamp)
        case jumpedBack(Timestamp)
        case restarted
    }
    private var offset: Int64?
    private var last: [StreamID: Int64] = [:]
    private var restarting = false
    public private(set) var runs = 0
    public private(set) var lastEvent: Event?
    public var slewPPM: Double { 0 }
    public init(maxSlew: Double = 0.000_5, forwardJumpLimit: Timestamp = .microseconds(10_000_000),
                backwardTolerance: Timestamp = .microseconds(500_000)) {}
    public mutating func place(stream: StreamID, decodeTime: Timestamp, arrival: Timestamp) -> Timestamp {
        let dts = decodeTime.rescaled(to: .microseconds).value
        if offset == nil || restarting {
            var o = arrival.value - dts
            if let newest = last.values.max(), dts + o <= newest { o = newest + 1 - dts }
            offset = o
            restarting = false
            runs += 1
        }
        let o = offset ?? 0
        last[stream] = max(last[stream] ?? Int64.min, dts + o)
        return .microseconds(o)
    }
    public mutating func restart() {
        restarting = true
        lastEvent = .restarted
    }
}
