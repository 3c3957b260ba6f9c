/// How far a recording's encoder may run behind the camera, and the options that keep it there.
///
/// A SIGKILL loses what the encoder still holds, so recordings (not clips) bound the encoder's
/// look-ahead: x264 by default holds 10 (veryfast) to 50 (slow) frames before its first packet,
/// libvpx in realtime mode 25 — 0.3 to 1.7 s at 30 fps. Capped to `budget`, the measured delay of
/// the default preset at 30 fps is 8 frames (look-ahead 5 + frame threads). A key the preset sets
/// itself is left alone: the preset's author chose it.
package enum EncoderLatency {
    /// The look-ahead a recording's encoder is allowed, in seconds of video.
    package static let budget = 0.15

    /// The frames of look-ahead for a stream at `fps`: the budget, but never fewer than the
    /// B-frames the encoder must see ahead.
    package static func lookahead(fps: Double, bFrames: Int?) -> Int {
        let frames = (fps.isFinite && fps > 0 ? min(fps, 1000) : 30) * budget
        return max(Int(frames.rounded()), bFrames ?? 0, 1)
    }

    /// Options to add to `options` for `encoder` so its delay stays within the budget.
    package static func options(encoder: String, fps: Double, bFrames: Int?,
                               setting options: [String: String]) -> [String: String] {
        let frames = lookahead(fps: fps, bFrames: bFrames)
        var add: [String: String] = [:]
        switch encoder {
        case "libx264":
            add["rc-lookahead"] = "\(frames)"
            add["x264-params"] = "sync-lookahead=0"
        case "libx265":
            // x265 wants its look-ahead deeper than its B-frame run (4 by default).
            add["x265-params"] = "rc-lookahead=\(max(frames, (bFrames ?? 4) + 1))"
        case "libvpx", "libvpx-vp9":
            add["lag-in-frames"] = "\(frames)"
        default:
            break
        }
        return add.filter { options[$0.key] == nil }
    }

    /// Options for a session someone may watch live (`--http`): x264 holds 2 pictures rather than
    /// 8 at 30 fps (measured: frames sent before the first packet), 200 ms less before the live
    /// page can show a picture. One picture of look-ahead keeps the macroblock tree, whose bits
    /// the file would otherwise lose: with none, x264 at CRF 23 wrote 45-58 % more for the same
    /// pictures, with one 4-7 % less at an SSIM 0.0004 lower (bench/live-encoder.sh). Threads on
    /// slices of one picture rather than on several pictures; the same CPU time. H.264 only: the
    /// live page plays nothing else.
    package static func liveOptions(encoder: String, setting options: [String: String]) -> [String: String] {
        guard encoder == "libx264" else { return [:] }
        let add = ["rc-lookahead": "1", "x264-params": "sync-lookahead=0:sliced-threads=1"]
        return add.filter { options[$0.key] == nil }
    }

    /// Options that make `encoder` hand each picture back before the next one goes in, for a
    /// source whose pictures come unevenly (a static screen sends one a second, so even a
    /// look-ahead of five pictures would hold the ring five seconds behind): no look-ahead, and
    /// x264's threads on slices of one picture rather than on several pictures.
    package static func noDelayOptions(encoder: String, setting options: [String: String]) -> [String: String] {
        var add: [String: String] = [:]
        switch encoder {
        case "libx264":
            add["rc-lookahead"] = "0"
            add["x264-params"] = "sync-lookahead=0:sliced-threads=1"
        case "libx265":
            add["x265-params"] = "rc-lookahead=0:bframes=0"
        case "libvpx", "libvpx-vp9":
            add["lag-in-frames"] = "0"
        default:
            break
        }
        return add.filter { options[$0.key] == nil }
    }
}
