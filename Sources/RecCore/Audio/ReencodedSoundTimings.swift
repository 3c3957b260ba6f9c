/// The packets a sound stream re-encoded packet by packet will have, known from the input's
/// packet times alone, before anything is decoded (pure). A clip that re-encodes a sound its
/// container cannot hold as recorded (Media's `ClipSoundFit`: a camera's G.711 into MP4) plans
/// its sample-exact cut (`SoundCut`) from these, and re-encodes as it writes.
///
/// Media's `SoundTranscoder` puts its output on the input's timeline and keeps it unbroken: a gap
/// is filled with silence of its length, an overlap dropped, jitter absorbed (`SoundContinuity`).
/// So its output is one run of whole encoder frames: the first input sample at its time, the
/// encoder's priming before it (the first packet starts `priming` samples early), and every
/// sample up to the end of the input's last packet after it; the encoder pads the last frame,
/// and its last packet says how many of its samples are real (FFmpeg's `AudioFrameQueue`).
package enum ReencodedSoundTimings {
    /// The output packets for input packets `input` (in order, times in `timeBase`, the
    /// decoder's) re-encoded at `rate` in frames of `frameSize` samples after `priming`: times in
    /// 1/`rate`, every one a keyframe, decode time = presentation time. Empty when the input
    /// covers no time. A packet without a duration (a demuxer that left it out) lasts until the
    /// next, and the last as long as the one before.
    package static func predict(input: [PacketTiming], timeBase: Rational, rate: Int, frameSize: Int,
                                priming: Int) -> [PacketTiming] {
        guard let first = input.first, let last = input.last, rate > 0, frameSize > 0 else { return [] }
        let out = Rational(1, Int32(rate))
        func ticks(_ value: Int64) -> Int64 { Timestamp(value: value, timeBase: timeBase).rescaled(to: out).value }
        var lastDuration = last.duration
        if lastDuration <= 0, input.count > 1 {
            let before = input[input.count - 2]
            lastDuration = before.duration > 0 ? before.duration : last.pts - before.pts
        }
        let start = ticks(first.pts)
        let samples = ticks(last.pts + max(0, lastDuration)) - start + Int64(priming)
        guard samples > Int64(priming) else { return [] }
        let frame = Int64(frameSize)
        let count = (samples + frame - 1) / frame
        return (0..<count).map { k in
            let pts = start - Int64(priming) + k * frame
            return PacketTiming(pts: pts, dts: pts, duration: min(frame, samples - k * frame), isKeyframe: true)
        }
    }
}
