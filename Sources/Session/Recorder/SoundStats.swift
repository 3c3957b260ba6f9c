import RecCore

/// What the sound of a recording has done so far, for `rec status` (honest telemetry, like the
/// picture's dropped frames).
public struct SoundStats: Sendable, Equatable {
    /// The source's description ("pulse:default", "test tone"), and what it delivers.
    public var device = ""
    public var inputFormat = ""
    /// The encoded stream: rate, channels, encoder.
    public var sampleRate = 0
    public var channels = 0
    public var encoder = ""
    /// The device's clock against the camera's, as measured: positive = the device runs fast.
    public var driftPPM: Double?
    /// Overruns the device reported, and gaps the clock found and filled with silence.
    public var overruns = 0
    public var gaps = 0
    public var gapSeconds = 0.0
    /// Samples left out because the device's time went back (overlaps).
    public var droppedSamples: Int64 = 0
    /// Peak level of the last second, dBFS (nil: silence or nothing yet).
    public var peakDBFS: Double?
    public var packets = 0
    /// Why the sound stopped while the pictures went on, if it did.
    public var failure: String?
    /// Sound packets let go because the encode thread took none for a long time (the camera was
    /// away with --on-unplug wait for over two minutes).
    public var droppedPackets = 0
    /// Session time of the newest sound placed.
    public var lastTime: Timestamp = .zero

    public init() {}

    /// As `rec status` and the recording summary show it.
    public var status: StatusSound {
        StatusSound(device: device, rate: sampleRate, channels: channels, encoder: encoder, driftPPM: driftPPM,
                    overruns: overruns, gaps: gaps, gapSeconds: gapSeconds, peakDBFS: peakDBFS, error: failure)
    }
}
