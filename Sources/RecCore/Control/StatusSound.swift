/// The sound part of `rec status` (`"audio"` in JSON): the device, the stream, the measured clock
/// drift against the camera, overruns and gaps (filled with silence), and the last second's peak.
package struct StatusSound: Sendable, Equatable, Codable {
    package var device: String
    package var rate: Int
    package var channels: Int
    package var encoder: String
    /// Positive: the device's clock runs fast against the camera's. Nil until measured.
    package var driftPPM: Double?
    package var overruns: Int
    package var gaps: Int
    package var gapSeconds: Double
    /// Nil for silence.
    package var peakDBFS: Double?
    /// Why the sound stopped while the pictures went on.
    package var error: String?

    package init(device: String, rate: Int, channels: Int, encoder: String, driftPPM: Double?, overruns: Int,
                gaps: Int, gapSeconds: Double, peakDBFS: Double?, error: String? = nil) {
        self.device = device
        self.rate = rate
        self.channels = channels
        self.encoder = encoder
        self.driftPPM = driftPPM
        self.overruns = overruns
        self.gaps = gaps
        self.gapSeconds = gapSeconds
        self.peakDBFS = peakDBFS
        self.error = error
    }

    private enum CodingKeys: String, CodingKey {
        case device, rate, channels, encoder, driftPPM = "drift_ppm", overruns, gaps
        case gapSeconds = "gap_seconds", peakDBFS = "peak_dbfs", error
    }

    package func encode(to encoder: any Encoder) throws {
        func tenth(_ v: Double?) -> Double? { v.map { $0.isFinite ? ($0 * 10).rounded() / 10 : 0 } }
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(device, forKey: .device)
        try c.encode(rate, forKey: .rate)
        try c.encode(channels, forKey: .channels)
        try c.encode(self.encoder, forKey: .encoder)
        try c.encodeIfPresent(tenth(driftPPM), forKey: .driftPPM)
        try c.encode(overruns, forKey: .overruns)
        try c.encode(gaps, forKey: .gaps)
        try c.encode((gapSeconds * 1000).rounded() / 1000, forKey: .gapSeconds)
        try c.encodeIfPresent(tenth(peakDBFS), forKey: .peakDBFS)
        try c.encodeIfPresent(error, forKey: .error)
    }
}
