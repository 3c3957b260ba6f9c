extension SaveRequest {
    /// The request's times as a selection in rec's time syntax. Run `problem()` first: numbers
    /// out of `ControlTime`'s range are refused there (here they would only saturate).
    package func timeSelection() throws(RecError) -> TimeSelection {
        func spec(_ t: ControlTime) throws(RecError) -> TimeSpec {
            switch t {
            case .text(let text): try TimeParser.position(text)
            case .seconds(let s): .offset(Timestamp(seconds: s))
            case .ago(let s): .fromEnd(Timestamp(seconds: s))
            case .unix(let s): .wallClock(Timestamp(seconds: s))
            }
        }
        if let last {
            switch last {
            case .text(let text): return .last(try TimeParser.duration(text))
            case .seconds(let s), .ago(let s): return .last(Timestamp(seconds: s))
            case .unix: throw .usage("'last' is a length of time, such as 30s")
            }
        }
        var selection = TimeSelection(from: try from.map(spec), to: try to.map(spec))
        selection.offsetsMayBeFuture = waitsForOffsets
        selection.clampsStart = clampsStart
        return selection
    }
}
