@testable import RecCore

/// Plays a `CutPlan` against a `SyntheticStream` like a muxer and a player would: copied
/// packets and decoded packets must have their references decoded before them within their
/// segment, an edit list shows only `[firstPresentedPTS, presentedEndPTS)`, and without edit
/// lists everything copied is shown. Collects the source pts the clip presents, in order.
struct ClipSimulation {
    var presented: [Int64] = []
    var problems: [String] = []

    init(_ plan: CutPlan, _ stream: SyntheticStream) {
        var previousMax = Int64.min
        for segment in plan.segments {
            var shown: [Int64] = []
            switch segment {
            case .copy(let range):
                let decoded = decode(range, stream)
                for index in range where decoded.contains(index) {
                    let pts = stream.packets[index].pts
                    if plan.strategy == .spliceReencode || (plan.firstPresentedPTS..<plan.presentedEndPTS).contains(pts) {
                        shown.append(pts)
                    }
                }
            case .reencode(let range, let present):
                let decoded = decode(range, stream)
                shown = range.filter { decoded.contains($0) && present.contains(stream.packets[$0].pts) }
                    .map { stream.packets[$0].pts }
            }
            shown.sort()
            if let first = shown.first, first <= previousMax {
                problems.append("segment \(segment) presents \(first) after \(previousMax)")
            }
            previousMax = shown.last ?? previousMax
            presented += shown
        }
        if Set(presented).count != presented.count { problems.append("a frame is presented twice") }
        presented.sort()
    }

    /// The packets of `range` that decode; records a problem for each that does not.
    private mutating func decode(_ range: Range<Int>, _ stream: SyntheticStream) -> Set<Int> {
        var decoded = Set<Int>()
        if range.isEmpty { problems.append("empty segment") }
        if let first = range.first, !stream.packets[first].isKeyframe {
            problems.append("segment \(range) does not start on a keyframe")
        }
        for index in range {
            if stream.references[index].allSatisfy(decoded.contains) {
                decoded.insert(index)
            } else {
                problems.append("packet \(index) (pts \(stream.packets[index].pts)) lacks a reference")
            }
        }
        return decoded
    }
}
