import RecCore
import Testing

/// How a live device's sound starts (issue 20: a real PulseAudio's first 1.4 to 1.75 s of sound
/// was missing and the report said "0 gaps"): when its first timestamps can be trusted, the
/// times of the chunks read before then, and a first chunk that comes after session time 0.
/// Pure: no threads, no files, no devices.
@Suite struct AudioStartTests {
    /// Chunks of 10 ms as libavdevice's pulse input stamps a new stream's: the first 0.46 s
    /// early, each advancing 15 ms instead of 10 until the error is gone (as measured against a
    /// real server's null-sink monitor), then on time. `truth` is when each really began.
    static func pulseLikeChunks(count: Int, firstAt truth: Double) -> [(observed: Double, truth: Double)] {
        var error = -0.46
        return (0..<count).map { i in
            let real = truth + Double(i) * 0.010
            defer { error = min(0, error + 0.005) }
            return (real + error, real)
        }
    }

    @Test func pulseTimesSettleOnlyAfterASecondOfSoundAndOnceSteady() {
        var settling = AudioSettling(bounds: 1...5)
        let chunks = Self.pulseLikeChunks(count: 300, firstAt: 1.2)
        var settledAt: Int?
        for (i, chunk) in chunks.enumerated() {
            settling.add(time: chunk.observed, length: 0.010)
            if settledAt == nil, settling.isSettled { settledAt = i }
        }
        guard let first = settledAt else {
            Issue.record("never settled")
            return
        }
        #expect(first >= 99, "settled after \(first + 1) chunks: less than a second of sound")
        #expect(abs(chunks[first].observed - chunks[first].truth) < 0.001, "the settled chunk's time is off")
        // Timed back from the settled chunk, the first chunk is where it really began, not 0.46 s early.
        let times = AudioSettling.backdated(lengths: Array(repeating: 10_000, count: first + 1),
                                            last: Int64((chunks[first].observed * 1e6).rounded()))
        #expect(times.count == first + 1)
        #expect(abs(Double(times[0]) / 1e6 - 1.2) < 0.001, "the first chunk is timed at \(Double(times[0]) / 1e6) s")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 10_000 }, "each chunk ends where the next begins")
    }

    /// The lower bound counts sound, not the time since the device opened: a server that took
    /// 1.2 s to send its first chunk has not thereby settled (the old rule counted from opening,
    /// so a second of waiting for the first chunk used up the whole bound).
    @Test func theBoundCountsSoundDelivered() {
        var settling = AudioSettling(bounds: 1...5)
        for i in 0..<60 { settling.add(time: 1.2 + Double(i) * 0.010, length: 0.010) }
        #expect(settling.isSteady && !settling.isSettled, "0.6 s of steady sound is not yet a second")
        #expect(abs(settling.delivered - 0.6) < 1e-9)
    }

    @Test func timesThatNeverSteadyAreTakenAtTheUpperBound() {
        var settling = AudioSettling(bounds: 1...5)
        for i in 0..<499 { settling.add(time: Double(i) * 0.015, length: 0.010) }
        #expect(!settling.isSettled)
        settling.add(time: 499 * 0.015, length: 0.010)
        #expect(settling.isSettled, "five seconds of sound")
    }

    @Test func aSourceTimedFromItsFirstChunkSettlesOnceSteady() {
        var settling = AudioSettling(bounds: 0...5)
        #expect(!settling.isSettled, "nothing read yet")
        for i in 0..<45 { settling.add(time: Double(i) * 0.010, length: 0.010) }
        #expect(settling.isSettled)
        #expect(AudioSettling.backdated(lengths: [], last: 5) == [])
        #expect(AudioSettling.backdated(lengths: [100, 200, 50], last: 1_000) == [700, 800, 1_000])
    }

    /// Sound that starts after session time 0 by more than a gap (a device that was slow to
    /// deliver) starts the timeline at 0 behind silence, and is counted as a gap: the sound
    /// covers the pictures from the first, and the report says what is missing.
    @Test func soundThatStartsLateIsALeadingGap() {
        var clock = AudioClock(outputRate: 48_000, inputRate: 48_000)
        let first = clock.place(observed: Timestamp(seconds: 1.436), samples: 480, position: nil)
        #expect(first == AudioPlacement(silence: 68_928, start: 0))
        #expect(clock.gaps == 1 && clock.gapSamples == 68_928)
        let second = clock.place(observed: Timestamp(seconds: 1.446), samples: 480, position: 68_928 + 480)
        #expect(second == .asIs, "the sound goes on where it was placed")
    }

    /// A first chunk within a gap of session time 0 (jitter) starts the timeline at its time:
    /// no silence, no gap.
    @Test func soundThatStartsWithinAGapStartsAtItsTime() {
        var clock = AudioClock(outputRate: 48_000, inputRate: 48_000)
        #expect(clock.place(observed: Timestamp(seconds: 0.05), samples: 480, position: nil) == AudioPlacement(start: 2_400))
        #expect(clock.gaps == 0)
        var long = AudioClock(outputRate: 48_000, inputRate: 48_000)
        // Two chunks of 130 ms (a server's first burst) are the threshold for such chunks.
        #expect(long.place(observed: Timestamp(seconds: 0.2), samples: 6_240, position: nil) == AudioPlacement(start: 9_600))
        #expect(long.gaps == 0)
    }
}
