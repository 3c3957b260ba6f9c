import Media
import RecCore

/// What other threads read of a running recording.
extension Recorder {
    /// The newest captured frame (for `rec snapshot`), without disturbing capture.
    package var latestFrame: VideoFrame? { latest.take() }

    /// The recording file holds every frame captured before this time (nil before the first
    /// fragment or cluster is complete). A fragment or cluster is written when the next keyframe
    /// arrives, so this is the newest keyframe written.
    package var fileComplete: Timestamp? { stats.withLock { $0.fileCompleteBefore } }

    /// The newest picture: the newest captured frame, or, when the preset stores a camera's
    /// H.264/H.265 as it comes, its newest keyframe decoded (up to a GOP old).
    package func latestPicture() throws(RecError) -> VideoFrame? {
        if let frame = latestFrame { return frame }
        guard let packet = latestCompressedFrame, let parameters = codecParameters, parameters.codec != .mjpeg else { return nil }
        do {
            let decoder = try VideoDecoder(parameters: parameters, threads: 1)
            try decoder.send(packet)
            try decoder.send(nil)
            while true {
                switch try decoder.receive() {
                case .output(let frame): return frame
                case .endOfStream: return nil
                case .needsInput: return nil
                }
            }
        } catch {
            throw error.recError("cannot decode the camera's newest keyframe")
        }
    }

    /// The newest compressed frame when the preset stores the camera's frames as they come (an
    /// MJPEG camera's every frame; an H.264/H.265 camera's newest keyframe).
    package var latestCompressedFrame: EncodedPacket? { latestPacket.withLock { $0 } }

    /// The encoder's stream parameters, once it runs (for writing clips from the ring).
    package var codecParameters: CodecParameters? { encoderParameters.value }

    /// The first sound encoder's stream parameters, once it runs; nil without sound.
    package var soundCodecParameters: CodecParameters? { soundParameters.value?.first }

    /// The source's nominal frame rate, once it has started (nil for one without).
    package var sourceRate: Rational? { sourceFacts.value?.rate }
}

/// What a source says of itself once it has started: told once, by the capture thread.
struct SourceFacts: Sendable {
    /// Its nominal frame rate, if it has one.
    var rate: Rational?
    /// Whether its pictures come unevenly (a screen), so keyframes go by time.
    var keyframesByTime: Bool
    /// The sound streams it brings itself (a network camera's).
    var sound: [CodecParameters]
    /// Whether the capture thread writes the copy itself; the encode thread then leaves it alone.
    var copiesOnCaptureThread: Bool
}
