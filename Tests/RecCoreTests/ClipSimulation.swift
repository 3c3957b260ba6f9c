@testable import RecCore

/// Plays a `CutPlan` against a `SyntheticStream` like a muxer and a player would: copied
/// packets and decoded packets must have their references decoded before them within their
/// segment (copied packets may also reference packets copied in an earlier copy segment: the
/// player's decoder runs on), an edit list shows only `[firstPresentedPTS, presentedEndPTS)`, and without edit
/// lists everything copied is shown. Collects the source pts the clip presents, in order.
struct ClipSimulation {
    var presented: [Int64] = []
    var problems: [String] = []

    init(_ plan: CutPlan, _ stream: SyntheticStream) {
        var previousMax = Int64.min
        var copied = Set<Int>()
        for segment in plan.segments {
            var shown: [Int64] = []
            switch segment {
            case .copy(let range):
                let decoded = decode(range, stream, after: copied)
                copied.formUnion(decoded)
                for index in range {
                    let pts = stream.packets[index].pts
                    guard plan.strategy == .spliceReencode || (plan.firstPresentedPTS..<plan.presentedEndPTS).contains(pts) else {
                        continue // hidden: a leading picture without its references may be skipped
                    }
                    if decoded.contains(index) {
                        shown.append(pts)
                    } else {
                        problems.append("packet \(index) (pts \(pts)) is shown without its references")
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
    private mutating func decode(_ range: Range<Int>, _ stream: SyntheticStream, after earlier: Set<Int>? = nil) -> Set<Int> {
        var decoded = earlier ?? []
        if range.isEmpty { problems.append("empty segment") }
        if earlier == nil, let first = range.first, !stream.packets[first].isKeyframe {
            problems.append("segment \(range) does not start on a keyframe")
        }
        for index in range {
            if stream.references[index].allSatisfy(decoded.contains) { decoded.insert(index) }
        }
        return decoded
    }
}
