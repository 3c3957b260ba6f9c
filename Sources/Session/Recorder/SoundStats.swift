import RecCore

/// What the sound of a recording has done so far, for `rec status` (honest telemetry, like the
/// picture's dropped frames).
package struct SoundStats: Sendable, Equatable {
    /// The source's description ("pulse:default", "test tone"), and what it delivers.
    package var device = ""
    package var inputFormat = ""
    /// The encoded stream: rate, channels, encoder.
    package var sampleRate = 0
    package var channels = 0
    package var encoder = ""
    /// The device's clock against the camera's, as measured: positive = the device runs fast.
    package var driftPPM: Double?
    /// Overruns the device reported, and gaps the clock found and filled with silence.
    package var overruns = 0
    package var gaps = 0
    package var gapSeconds = 0.0
    /// Samples left out because the device's time went back (overlaps).
    package var droppedSamples: Int64 = 0
    /// Peak level of the last second, dBFS (nil: silence or nothing yet).
    package var peakDBFS: Double?
    package var packets = 0
    /// Why the sound stopped while the pictures went on, if it did.
    package var failure: String?
    /// Sound packets let go because the encode thread took none for a long time (the camera was
    /// away with --on-unplug wait for over two minutes).
    package var droppedPackets = 0
    /// Session time of the newest sound placed.
    package var lastTime: Timestamp = .zero

    package init() {}

    /// As `rec status` and the recording summary show it.
    package var status: StatusSound {
        StatusSound(device: device, rate: sampleRate, channels: channels, encoder: encoder, driftPPM: driftPPM,
                    overruns: overruns, gaps: gaps, gapSeconds: gapSeconds, peakDBFS: peakDBFS, error: failure)
    }
}
