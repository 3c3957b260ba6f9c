import Media
import RecCore

/// libavformat hands out an RTSP stream's first packet without times (its parser has not timed
/// it yet). That keyframe is presented before every picture after it, so it waits for the next
/// `depth + 1` pictures (a B-frame stream's picture presented right after the keyframe decodes
/// among them) and is presented one frame before the earliest of them. Before, it was presented
/// `depth + 1` frames before the next picture alone, which holds for a B-pyramid but not for
/// B-frames without one (x264 main, two B-frames: the keyframe a frame late, at the time of the
/// picture after it). A next picture without times means the camera sends none: both keep their
/// arrivals.
extension NetworkSource {
    /// Holds `read` behind the untimed keyframe until enough pictures came to time it; true.
    func waitWithUntimedKeyframe(_ read: consuming EncodedPacket, isVideo: Bool, now: UInt64) -> Bool {
        let untimed = isVideo && read.dts == Int64.min
        afterUntimed.append((read, isVideo, now))
        let depth = videoDepth
        if untimed || afterUntimed.count(where: \.isVideo) > depth { placeUntimedKeyframe() }
        return true
    }

    /// Places the untimed keyframe, then what came after it, in order; with nothing after it
    /// (a reconnect), the keyframe keeps its arrival.
    func placeUntimedKeyframe() {
        guard let (held, arrived) = untimedKeyframe.take() else { return }
        var keyframe = held
        let pictures = afterUntimed.filter(\.isVideo).map(\.packet)
        if let first = pictures.first, first.dts != Int64.min, let earliest = pictures.map(\.pts).filter({ $0 != Int64.min }).min() {
            keyframe.pts = earliest - frameStep(in: first.timeBase)
            keyframe.dts = keyframe.pts
        } else if !pictures.isEmpty {
            sendsNoTimes = true
        }
        place(keyframe, isVideo: true, now: arrived)
        let after = afterUntimed
        afterUntimed = []
        for item in after { place(item.packet, isVideo: item.isVideo, now: item.now) }
    }
}
