/// Where a clip's sound sits in its source's, to the sample: normalised cross-correlation of a
/// window of the clip against the source at every whole lag near the one expected. Lossy codecs
/// keep the waveform closely enough for the peak to stay on the right sample (AAC and Opus at
/// their usual rates; see SoundProbeTests), provided the signal is broadband: a pure tone matches
/// itself at every period, so the tests use seeded white noise.
///
/// A lag is an offset: `clip[i]` is `source[i + lag]`. A clip cut at [from, to) has lag `from`
/// at its head and at its tail, and `clip.count == to - from`.
enum SampleAlignment {
    /// How many samples of the clip are compared: 85 ms at 48 kHz, long enough that noise matches
    /// at one lag only, short enough that a lossy codec's drift over it is well under a sample.
    static let window = 4096

    /// The lag within `expected ± search` at which the clip's first `window` samples best match
    /// the source, and the correlation there (1 is a perfect match; 0 when no lag fits).
    static func lag(of clip: [Float], in source: [Float], around expected: Int, search: Int) -> (lag: Int, correlation: Double) {
        let count = min(window, clip.count)
        return best(clip, part: 0..<count, in: source, around: expected, search: search)
    }

    /// The same for the clip's last `window` samples: where its tail sits, as an offset, so a
    /// clip that ends at `to` has tail lag `to - clip.count`.
    static func tailLag(of clip: [Float], in source: [Float], around expected: Int, search: Int) -> (lag: Int, correlation: Double) {
        let count = min(window, clip.count)
        return best(clip, part: (clip.count - count)..<clip.count, in: source, around: expected, search: search)
    }

    /// Normalised cross-correlation of `clip[part]` with the source at each lag; the source's
    /// energy under the window slides along with the lag instead of being summed again.
    private static func best(_ clip: [Float], part: Range<Int>, in source: [Float], around expected: Int,
                             search: Int) -> (lag: Int, correlation: Double) {
        let n = part.count
        // Lags whose window lies inside the source.
        let low = max(expected - search, -part.lowerBound)
        let high = min(expected + search, source.count - n - part.lowerBound)
        guard n > 0, low <= high else { return (expected, 0) }
        return clip.withUnsafeBufferPointer { c in
            source.withUnsafeBufferPointer { s in
                let a = c.baseAddress! + part.lowerBound
                var clipEnergy = 0.0
                for i in 0..<n { clipEnergy += Double(a[i]) * Double(a[i]) }
                var start = part.lowerBound + low          // source index under the window's first sample
                var energy = 0.0
                for i in 0..<n { energy += Double(s[start + i]) * Double(s[start + i]) }
                var bestLag = expected, bestCorrelation = -Double.infinity
                for lag in low...high {
                    if lag > low {
                        let out = Double(s[start - 1]), into = Double(s[start + n - 1])
                        energy += into * into - out * out
                    }
                    let b = s.baseAddress! + start
                    var dot = 0.0
                    for i in 0..<n { dot += Double(a[i]) * Double(b[i]) }
                    let norm = (clipEnergy * max(energy, 0)).squareRoot()
                    let correlation = norm > 0 ? dot / norm : 0
                    if correlation > bestCorrelation { (bestLag, bestCorrelation) = (lag, correlation) }
                    start += 1
                }
                return (bestLag, max(bestCorrelation, 0))
            }
        }
    }
}
