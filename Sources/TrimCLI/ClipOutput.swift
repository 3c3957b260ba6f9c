import Foundation
import Media
import RecClient
import RecCore
import SessionControl

/// The report `rec trim` and `rec save` print after writing a clip, for people and for scripts.
struct ClipReportText: Encodable {
    var path: String?
    var requestedFrom: Double
    var requestedTo: Double
    var presentedFrom: Double
    var presentedTo: Double
    var frames: Int
    var prerollHidden: Int
    var trailingHidden: Int
    var reencoded: Int
    var keyframes: [Double]
    var mode: String
    var bytes: Int64?
    var droppedInRange: Int?

    init(plan: CutPlan, path: String?, bytes: Int64?, origin: Timestamp = .zero, droppedInRange: Int? = nil) {
        func sec(_ t: Timestamp) -> Double { ((t.seconds - origin.seconds) * 1_000_000).rounded() / 1_000_000 }
        self.path = path
        requestedFrom = sec(plan.requestedFrom)
        requestedTo = sec(plan.requestedTo)
        presentedFrom = sec(plan.presentedStart)
        presentedTo = sec(plan.presentedEnd)
        frames = plan.presentedFrames
        prerollHidden = plan.prerollFrames
        trailingHidden = plan.trailingHiddenFrames
        reencoded = plan.reencodedFrames
        keyframes = plan.keyframesUsed.map { sec(Timestamp(value: $0, timeBase: plan.timeBase)) }
        mode = plan.mode == .keyframe ? "keyframe" : (plan.strategy == .editList ? "exact (edit list)" : "exact (splice)")
        self.bytes = bytes
        self.droppedInRange = droppedInRange
    }

    var json: String { JSONText.encode(self) }

    var text: String {
        var lines = ["saved \(path ?? "(nothing)")",
                     "  presented \(TimeText.clock(presentedFrom))–\(TimeText.clock(presentedTo)) (\(frames) frames) "
                        + "of requested \(TimeText.clock(requestedFrom))–\(TimeText.clock(requestedTo)), \(mode)"]
        var how: [String] = []
        if prerollHidden > 0 { how.append("\(prerollHidden) preroll frames hidden") }
        if trailingHidden > 0 { how.append("\(trailingHidden) trailing reference frames hidden") }
        if reencoded > 0 { how.append("\(reencoded) frames re-encoded") }
        if let droppedInRange, droppedInRange > 0 { how.append("\(droppedInRange) frames were dropped in this range while recording") }
        if let bytes { how.append(StatusLine.bytes(bytes)) }
        if !how.isEmpty { lines.append("  " + how.joined(separator: ", ")) }
        return lines.joined(separator: "\n")
    }
}
