import Foundation
import Media
import RecCore

/// The stand-in microphone (`--audio test`, `test:skew=S`): needs no hardware, and its sound
/// says where every second of the session timeline falls, so sync can be measured.
///
/// The signal, 48000 Hz stereo float planar (both channels the same), in chunks of 1024 samples:
/// - a 440 Hz sine at amplitude 0.1 (`0.1 × sin(2π × 440 × i / 48000)` at device sample i);
/// - a click at every whole second k ≥ 0 of the session timeline: 2 ms replacing the sine,
///   +0.8 for 48 samples then −0.8 for 48 samples, starting at the device sample nearest
///   k × 48000 × (1 + skew) (`clickSample(_:)`). It lines up with the stand-in camera's second
///   mark (`TestPattern.secondMark`, lit on frame n when n % fps == 0: at session time k s).
///
/// To find the clicks, tests and benchmarks take the first sample whose |value| exceeds 0.5
/// after at least 0.5 s whose samples all stay at or below it (the sine never passes 0.1); the
/// click at 0 is the very first sample.
///
/// The device's clock runs `skew` fast: the chunk starting at device sample i is timed at
/// session time i / (48000 × (1 + skew)) (`chunkTime(startingAt:)`), so with skew 0.002 it
/// delivers 0.2 % more samples per session second, which drift correction downstream must
/// absorb; left uncorrected, click k would play at k × (1 + skew) s. The rate 48000 × (1 + skew)
/// is kept to the millihertz, so times and click positions are exact integer arithmetic.
///
/// Not live: `nextChunk` returns at once, and the audio thread paces it to the session clock.
package final class TestToneSource: AudioSource {
    package static let sampleRate = 48000
    package static let chunkSamples = 1024
    package static let toneFrequency = 440.0
    package static let toneAmplitude: Float = 0.1
    package static let clickLevel: Float = 0.8
    /// Samples of each half of a click: 1 ms.
    package static let clickHalfSamples = 48

    package let skew: Double
    /// The device's rate on the session clock, in millihertz: 48000 × (1 + skew) × 1000.
    package let deviceMillihertz: Int64
    private var next: Int64 = 0
    private var started = false

    package init(skew: Double = 0) {
        self.skew = skew
        self.deviceMillihertz = Int64((Double(Self.sampleRate) * (1 + skew) * 1000).rounded())
    }

    package var description: String {
        skew == 0 ? "test tone" : "test tone (skew \(skew > 0 ? "+" : "")\(skew * 100) %)"
    }
    package var format: AudioFormat { .floatPlanar(rate: Self.sampleRate, channels: 2) }
    package var isLive: Bool { false }
    /// Timed by its own samples from the first.
    package var settling: ClosedRange<Double> { 0...0 }
    package var overruns: Int { 0 }

    package func start(epoch: UInt64) throws(RecError) {
        next = 0
        started = true
    }

    package func stop() { started = false }

    /// The device sample the click of second `k` starts at: the nearest to k × 48000 × (1 + skew).
    package func clickSample(_ second: Int64) -> Int64 {
        (second * deviceMillihertz + 500) / 1000
    }

    /// The session time of device sample `sample`: sample / (48000 × (1 + skew)) seconds, exact.
    package func chunkTime(startingAt sample: Int64) -> Timestamp {
        // sample × 1000 / millihertz, in lowest terms: 1/48000 s ticks with skew 0, 1/48096 with 0.002.
        var (a, b) = (deviceMillihertz, Int64(1000))
        while b != 0 { (a, b) = (b, a % b) }
        return Timestamp(value: sample * (1000 / a), timeBase: Rational(1, Int32(deviceMillihertz / a)))
    }

    package func nextChunk() throws(RecError) -> AudioFrame? {
        guard started else { return nil }
        let frame: AudioFrame
        do {
            frame = try AudioFrame(format: format, samples: Self.chunkSamples, time: chunkTime(startingAt: next))
        } catch {
            throw error.recError("the stand-in microphone could not allocate a chunk")
        }
        let first = next
        let samples = (0..<Self.chunkSamples).map { value(at: first + Int64($0)) }
        for channel in 0..<format.channels {
            guard let plane = frame.pointer.pointee.extended_data[channel] else { continue }
            plane.withMemoryRebound(to: Float.self, capacity: Self.chunkSamples) { out in
                for (i, sample) in samples.enumerated() { out[i] = sample }
            }
        }
        next += Int64(Self.chunkSamples)
        return frame
    }

    /// The signal at device sample `i`: ±0.8 inside a click, the sine elsewhere.
    func value(at i: Int64) -> Float {
        // A click lasts 2 ms of a second, so only the second nearest to i can hold it.
        let offset = i - clickSample((i * 1000 + deviceMillihertz / 2) / deviceMillihertz)
        let half = Int64(Self.clickHalfSamples)
        if offset >= 0 && offset < half { return Self.clickLevel }
        if offset >= half && offset < 2 * half { return -Self.clickLevel }
        let phase = 2 * Double.pi * Self.toneFrequency * Double(i % Int64(Self.sampleRate)) / Double(Self.sampleRate)
        return Self.toneAmplitude * Float(sin(phase))
    }
}
