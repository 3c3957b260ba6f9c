/// Where each decoded run of a re-encoded stream's sound goes, so that the new stream keeps the
/// timeline the packets state: a camera's G.711 re-encoded to AAC for MP4 (Media's
/// `SoundTranscoder` owns one and `AudioPipeline` carries out its `AudioPlacement`s). Pure.
///
/// A demuxed stream's times are not a sound card's: they are exact to the sample (RTP's, a WAV's)
/// or rounded to the container's tick (Matroska's millisecond), and where they disagree with the
/// sample count it means something: a packet lost on the way, or a clock slewed toward the local
/// one (a network source anchors RTP times to CLOCK_MONOTONIC, at most 500 ppm off). So there is
/// no clock model here (`AudioClock` is for devices): each run's stated start is compared with
/// where the pipeline's next output sample will land, and that error `e` (output samples) decides:
///
/// - Late by more than half the run's length: a gap. `silence` of exactly `e` goes before the run,
///   so a lost packet leaves a gap of its own length, not squeezed, and what follows stays where
///   its times say.
/// - Early by more than half the run's length: an overlap (the same time sent twice, a step back).
///   The run's leading samples that cover time already placed are dropped (`drop`), all of them
///   when it lies wholly before.
/// - Within half a run (at least 1 ms): jitter (times rounded to the container's tick) or a slow
///   slew. The run goes right after the one before, every sample kept, and the resampler is asked
///   for `e × run length / settle` samples more or fewer over it (`swr_set_compensation`), at most
///   `maximumStretch` of them, the fraction rounding leaves carried to the next run. The error then decays with a time constant of `settle` instead of
///   adding up: rounding jitter averages out, and a steady slew `r` leaves a steady error of
///   `r × settle` (500 ppm: 0.5 ms), which never grows. No drift, and no clicks.
///
/// A step beyond `maximumJump` either way is a broken time, not a gap: the run goes right after the
/// one before and later times are taken as moved by the step (`clockBreaks`), so that no bogus
/// time asks for hours of silence or drops everything after it. A source that starts a new run
/// on such a step (a network source does beyond 10 s) gives the new run a new transcoder.
/// A run without a time (`start` nil) follows the one before. Units: `start`, `position`,
/// `silence`, `compensation`, `compensationDistance` and `gapSamples` in output samples (time base
/// 1/`outputRate`, on the input's timeline); `samples`, `drop` and `droppedSamples` in input samples.
package struct SoundContinuity: Sendable, Equatable {
    package let inputRate: Int
    package let outputRate: Int
    /// The most the resampler may stretch or squeeze a run, as `AudioClock.Policy.maximumStretch`:
    /// 0.5 % (8.6 cents while it lasts), ten times the slew a network source allows itself.
    package var maximumStretch = 0.005
    /// Seconds a small error takes to decay (the proportional correction's time constant).
    package var settle = 1.0
    /// Seconds: a step larger than this is a broken time (as `AudioClock.Policy.maximumJump`).
    package var maximumJump = 3_600.0

    /// Silences inserted for gaps, and the output samples they hold.
    package private(set) var gaps = 0
    package private(set) var gapSamples: Int64 = 0
    /// Input samples dropped because they covered time already placed.
    package private(set) var droppedSamples: Int64 = 0
    /// Steps beyond `maximumJump`, after which times are taken as moved by the step.
    package private(set) var clockBreaks = 0
    /// Output samples later runs' times are moved back by, after breaks.
    private var offset: Int64 = 0
    /// The part of the correction asked for that rounding to whole samples left out, asked for
    /// with the next run's: so that an error of a few samples is still taken back, not left in
    /// a dead band (at most half a sample either way).
    private var carry = 0.0

    package init(inputRate: Int, outputRate: Int) {
        self.inputRate = max(1, inputRate)
        self.outputRate = max(1, outputRate)
    }

    /// Where the run of `samples` input samples whose first sample's time is `start` goes, when
    /// the pipeline's next output sample lands at `position` (what the resampler and the encoder's
    /// FIFO hold included). The first run is not placed here: it starts the pipeline at its time.
    package mutating func place(start: Int64?, samples: Int, position: Int64) -> AudioPlacement {
        guard samples > 0, let start else { return .asIs }
        let ratio = Double(outputRate) / Double(inputRate)
        let length = Double(samples) * ratio
        let limit = max(length / 2, Double(outputRate) / 1000)
        var error = Double(start) - Double(offset) - Double(position)
        if abs(error) > maximumJump * Double(outputRate) {
            clockBreaks += 1
            offset = Self.int64(Double(offset) + error)
            error = 0
        }
        if abs(error) > limit { carry = 0 }
        if error > limit {
            let silence = Self.int(error)
            gaps += 1
            gapSamples += Int64(silence)  // at most an hour's each: `maximumJump`
            return AudioPlacement(silence: silence)
        }
        if error < -limit {
            let drop = min(samples, Self.int(-error / ratio))
            droppedSamples += Int64(drop)
            return AudioPlacement(drop: drop)
        }
        guard maximumStretch > 0 else { return .asIs }
        // Spread over the run, or over more when the run is too short for one sample within the cap
        // (swr applies it as a rate until the next run sets its own, so this run sees `seen` of it).
        let distance = max(length.rounded(), (1 / maximumStretch).rounded(.up))
        let seen = min(1, length / distance)
        let share = settle > 0 ? min(1, length / (settle * Double(outputRate))) : 1
        let cap = (maximumStretch * distance).rounded(.down)
        let wanted = error * share + carry
        let asked = (wanted / seen).rounded()
        let compensation = max(-cap, min(cap, asked))
        carry = compensation == asked ? wanted - compensation * seen : 0
        guard compensation != 0 else { return .asIs }
        return AudioPlacement(compensation: Self.int(compensation), compensationDistance: Self.int(distance))
    }

    /// Rounded, saturating at ±2^62 (NaN is 0): bad times never trap.
    private static func int64(_ value: Double) -> Int64 {
        guard !value.isNaN else { return 0 }
        return Int64(max(-0x1p62, min(0x1p62, value.rounded())))
    }

    private static func int(_ value: Double) -> Int { Int(int64(value)) }
}
