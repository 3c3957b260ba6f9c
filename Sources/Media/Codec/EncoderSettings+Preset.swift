import RecCore

extension EncoderSettings {
    /// The settings a preset describes, before the source is known: a zero size and `.none`
    /// pixel format mean "the source's" (see `EncodingPipeline`).
    package init(preset: Preset, frameRate: Rational = Rational(30, 1)) {
        let rate: RateControl = switch preset.rateControl {
        case .crf(let q)?: .crf(q)
        case .bitrate(let b)?: .bitrate(b)
        case .qscale(let q)?: .qscale(Double(q))
        case nil: .encoderDefault
        }
        self.init(encoder: preset.encoder, width: preset.size?.width ?? 0, height: preset.size?.height ?? 0,
                  pixelFormat: preset.pixelFormat.flatMap { PixelFormat(name: $0) } ?? .none,
                  frameRate: preset.fps ?? frameRate, keyframeInterval: preset.gopSize(frameRate: preset.fps ?? frameRate),
                  rateControl: rate, bFrames: preset.bframes, speed: preset.speed, tune: preset.tune, options: preset.options)
    }

    /// Every setting that is a libavcodec option, in the order they go into the `AVDictionary` for
    /// `avcodec_open2` (a later key replaces an earlier one, so the preset's own `options` win):
    /// `g`, `threads`, `bf`, the rate control (`crf` with `b`=0; `b`; or `flags`=+qscale with
    /// `global_quality`), `preset`, `tune`, then `options`. Empty for `copy`. With qscale the
    /// encoder also needs each frame's `quality` set, which `EncodingPipeline` does.
    package var codecOptions: [(key: String, value: String)] {
        guard !copiesInput else { return [] }
        var out: [(key: String, value: String)] = [("g", "\(max(1, keyframeInterval))"),
                                                   ("threads", threads == 0 ? "auto" : "\(threads)")]
        if let bFrames { out.append(("bf", "\(bFrames)")) }
        switch rateControl {
        case .crf(let q): out += [("crf", q == q.rounded() ? "\(Int(q))" : "\(q)"), ("b", "0")]
        case .bitrate(let b): out.append(("b", "\(b)"))
        case .qscale(let q): out += [("flags", "+qscale"), ("global_quality", "\(Int((q * 118).rounded()))")]
        case .encoderDefault: break
        }
        if let speed { out.append(("preset", speed)) }
        if let tune { out.append(("tune", tune)) }
        for (key, value) in options.sorted(by: { $0.key < $1.key }) { out.append((key, value)) }
        return out
    }
}
