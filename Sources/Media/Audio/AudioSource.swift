import RecCore

/// Where sound comes from: a sound server or ALSA input (libavdevice), a file's audio stream, the
/// stand-in tone. Driven by one thread, the audio thread ("rec.audio"): `start(epoch:)`, then
/// `nextChunk()` until nil or a throw, then `stop()`.
///
/// Times: every chunk carries the session time its first sample was captured at, as observed —
/// the device's capture timestamp mapped onto CLOCK_MONOTONIC and then onto the session timeline
/// by `epoch`. The audio thread's `AudioClock` (RecCore) turns those noisy observations and the
/// sample count into one timeline without drift; a source never corrects anything itself.
package protocol AudioSource: AnyObject {
    /// One line for status: "pulse:default (48000 Hz, 2 ch)", "test tone (skew +0.2 %)".
    var description: String { get }
    /// What chunks come in, known after `start(epoch:)`.
    var format: AudioFormat { get }
    /// Opens the device or file. `epoch` is the CLOCK_MONOTONIC instant, in nanoseconds
    /// (`DispatchTime.now().uptimeNanoseconds`), of session time 0 (the first video frame).
    func start(epoch: UInt64) throws(RecError)
    /// Blocks until the next chunk of samples; nil at the end of the source.
    func nextChunk() throws(RecError) -> AudioFrame?
    /// Overruns the device reported (samples it lost because nobody read in time); 0 if it cannot tell.
    var overruns: Int { get }
    /// Whether chunks arrive in real time by themselves (a device). The stand-in tone and a file
    /// are paced by the audio thread to the session clock, as the capture loop paces pictures.
    var isLive: Bool { get }
    /// How much of a live source's sound (seconds, from its first chunk) comes before its
    /// timestamps can be trusted: at least the lower bound, then until they advance with the
    /// samples, at most the upper (RecCore's `AudioSettling`). The chunks read meanwhile are kept
    /// and timed back from the first trusted one. `0...0` for a source whose times are right from
    /// its first chunk (the stand-in tone, a file).
    var settling: ClosedRange<Double> { get }
    /// Stops and releases the device or file; safe to call more than once.
    func stop()
}
