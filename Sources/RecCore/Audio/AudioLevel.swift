import Foundation // log10 only

/// A peak meter over the last second of sound (or `window` seconds): feed it each chunk's peak
/// magnitude, read the loudest of the chunks that ended within the window. Pure; the audio
/// thread feeds it, status reads a copy.
///
/// Peaks are magnitudes of full scale: 0 is silence, 1 is full scale (a float sample beyond 1
/// counts as 1, a NaN as 0). The window slides with the sound fed, not with a clock: the meter
/// holds the last second of samples, whatever their rates.
package struct AudioLevel: Sendable {
    /// The window, in nanoseconds of sound.
    package let window: Int64
    /// Chunks that may still be the peak: their peaks strictly decrease from the oldest, each
    /// with the instant (ns of sound fed) its chunk ended.
    private var candidates: [(peak: Float, end: Int64)] = []
    private var fed: Int64 = 0

    package init(window: Double = 1) {
        self.window = max(1, Int64((window * 1e9).rounded()))
    }

    /// Adds a chunk of `samples` samples at `rate` samples per second whose largest magnitude
    /// is `peak`. A chunk with no samples, or no rate, is ignored.
    package mutating func add(peak: Float, samples: Int, rate: Int) {
        guard samples > 0, rate > 0 else { return }
        let level = peak.isNaN ? 0 : min(1, max(0, peak))
        let length = Int64(samples).multipliedReportingOverflow(by: 1_000_000_000)
        fed += length.overflow ? window : min(window, length.partialValue / Int64(rate))
        while let last = candidates.last, last.peak <= level { candidates.removeLast() }
        candidates.append((level, fed))
        while let first = candidates.first, first.end <= fed - window { candidates.removeFirst() }
    }

    /// The loudest peak of the window, 0…1.
    package var peak: Float { candidates.first?.peak ?? 0 }

    /// The peak in dB of full scale, −∞ < dBFS ≤ 0; nil for silence (a peak of exactly 0).
    package var peakDBFS: Double? { Self.dbfs(peak) }

    /// 20 log10 of a magnitude; nil for 0.
    package static func dbfs(_ magnitude: Float) -> Double? {
        guard magnitude > 0 else { return nil }
        return 20 * log10(Double(min(1, magnitude)))
    }

    /// The lowest level the bar shows: −60 dBFS and below is an empty bar.
    package static let meterFloor = -60.0

    /// A terminal meter, `[#######-----] -12 dBFS`: `width` cells filled in proportion from
    /// −60 to 0 dBFS, and the level in whole dB; silence (nil) is an empty bar and `-inf dBFS`.
    package static func bar(_ dbfs: Double?, width: Int) -> String {
        let cells = max(0, width)
        var filled = 0
        var label = "-inf"
        if let dbfs, !dbfs.isNaN {
            let level = min(0, dbfs)
            let fraction = max(0, (level - meterFloor) / -meterFloor)
            filled = min(cells, Int((fraction * Double(cells)).rounded()))
            label = level <= -1e6 ? "-inf" : String(Int(level.rounded()))
        }
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: cells - filled) + "] \(label) dBFS"
    }
}
