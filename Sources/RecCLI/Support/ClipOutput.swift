import Foundation
import Media
import RecCore

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

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

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

/// Which containers can hold which codecs, for a clip written by stream copy.
enum ClipContainer {
    static func check(codec: String, container: ContainerFormat, path: String) throws(RecError) {
        let fits: Bool
        switch container {
        case .webm: fits = ["vp8", "vp9", "av1"].contains(codec)
        case .mp4: fits = ["h264", "hevc", "av1", "vp9", "mjpeg", "mpeg4"].contains(codec)
        case .mov: fits = ["h264", "hevc", "mjpeg", "prores", "mpeg4", "av1"].contains(codec)
        case .mkv: fits = true
        }
        if !fits {
            throw .usage("a .\(container.rawValue) file cannot hold \(codec) video; write the clip as .mkv (holds any codec) or use --reencode with a preset that fits")
        }
    }
}
