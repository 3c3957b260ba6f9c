import Testing
@testable import RecCore

/// Sample-exact sound cuts: which packets, and what the container hides at each end.
@Suite struct SoundCutTests {
    static let rate = 48_000
    static let tb = Rational(1, 48_000)
    /// 1024-sample packets from `start`.
    static func aac(from start: Int64 = -1024, count: Int = 400) -> [PacketTiming] {
        (0..<count).map { PacketTiming(pts: start + Int64($0) * 1024, dts: start + Int64($0) * 1024, duration: 1024, isKeyframe: true) }
    }

    @Test func editListCutHidesPrerollAndTail() throws {
        let from = Timestamp(seconds: 1.5), to = Timestamp(seconds: 3.7)
        let cut = try #require(SoundCut.plan(timings: Self.aac(), timeBase: Self.tb, sampleRate: Self.rate, from: from, to: to,
                                             preroll: 1024, trim: .editList))
        #expect(cut.firstSample == 72_000)
        #expect(cut.endSample == 177_600)
        let timings = Self.aac()
        let first = timings[cut.keep.lowerBound].pts
        // Decoding starts a frame before the packet holding the first sample.
        #expect(first <= 72_000 - 1024)
        #expect(first > 72_000 - 2048)
        #expect(cut.startSkip == 72_000 - first)
        let last = timings[cut.keep.upperBound - 1]
        #expect(last.pts < 177_600 && last.pts + 1024 >= 177_600)
        #expect(cut.endDiscard == last.pts + 1024 - 177_600)
        // The clip's sound: kept samples minus what is hidden is exactly [from, to).
        let kept = Int64(cut.keep.count) * 1024
        #expect(kept - cut.startSkip - cut.endDiscard == 105_600)
        #expect(cut.clipPTS(first, timeBase: Self.tb) == -cut.startSkip)
    }

    @Test func timesBetweenSamplesRoundUp() throws {
        // 1/90000 ticks: 90001/90000 s lies between samples 48000 and 48001.
        let from = Timestamp(value: 90_001, timeBase: Rational(1, 90_000))
        let cut = try #require(SoundCut.plan(timings: Self.aac(), timeBase: Self.tb, sampleRate: Self.rate,
                                             from: from, to: Timestamp(seconds: 2), preroll: 0, trim: .editList))
        #expect(cut.firstSample == 48_001)
        #expect(cut.endSample == 96_000)
    }

    @Test func packetTrimKeepsTrueTimesAndWholePackets() throws {
        let cut = try #require(SoundCut.plan(timings: Self.aac(from: 0), timeBase: Self.tb, sampleRate: Self.rate,
                                             from: Timestamp(seconds: 1.5), to: Timestamp(seconds: 3.7), preroll: 1024, trim: .packets))
        let timings = Self.aac(from: 0)
        let first = timings[cut.keep.lowerBound].pts
        let last = timings[cut.keep.upperBound - 1]
        #expect(first >= 72_000 && first - 72_000 < 1024)   // starts within one packet after the pictures
        #expect(abs(last.pts + 1024 - 177_600) <= 512)      // ends within half a packet of them
        #expect(cut.startSkip == 0 && cut.endDiscard == 0)  // nothing for DiscardPadding
        #expect(cut.clipPTS(first, timeBase: Self.tb) == first - 72_000) // in sync: its true time
    }

    /// No packet before the first is kept to prime the decoder (AAC overlaps frames): its sound
    /// could only be hidden by DiscardPadding over the whole block, which moves the next block's
    /// sound to its time in players that count samples from the first block, and which Firefox
    /// refuses. Nor is the last packet's surplus: the sound ends at the packet boundary nearest
    /// the pictures' end.
    @Test(arguments: [(1.5, 3.7), (2.0, 3.5), (1.0, 1.0 + 1000.0 / 48_000)])
    func packetTrimPrimesNothingAndDiscardsNothing(range: (Double, Double)) throws {
        let timings = Self.aac(from: -1024)
        let cut = try #require(SoundCut.plan(timings: timings, timeBase: Self.tb, sampleRate: Self.rate, from: Timestamp(seconds: range.0),
                                             to: Timestamp(seconds: range.1), preroll: 1024, trim: .packets))
        #expect(timings[cut.keep.lowerBound].pts >= cut.firstSample)
        #expect(timings[cut.keep.lowerBound - 1].pts < cut.firstSample)
        #expect(cut.startSkip == 0 && cut.endDiscard == 0)
        let end = timings[cut.keep.upperBound - 1].pts + 1024
        #expect(abs(end - cut.endSample) <= 512, "ends at \(end), pictures at \(cut.endSample)")
    }

    @Test func soundThatStartsLateIsKeptFromItsStart() throws {
        let cut = try #require(SoundCut.plan(timings: Self.aac(from: 30_000), timeBase: Self.tb, sampleRate: Self.rate,
                                             from: .zero, to: Timestamp(seconds: 2), preroll: 1024, trim: .editList))
        #expect(cut.keep.lowerBound == 0)
        #expect(cut.startSkip == 0)
        #expect(cut.clipPTS(30_000, timeBase: Self.tb) == 30_000)
    }

    @Test func noSoundInTheRangeIsNil() {
        #expect(SoundCut.plan(timings: Self.aac(from: 0, count: 10), timeBase: Self.tb, sampleRate: Self.rate,
                              from: Timestamp(seconds: 5), to: Timestamp(seconds: 6), preroll: 1024, trim: .editList) == nil)
        #expect(SoundCut.plan(timings: [], timeBase: Self.tb, sampleRate: Self.rate,
                              from: .zero, to: Timestamp(seconds: 1), preroll: 0, trim: .codecDelay) == nil)
    }

    @Test func millisecondTimeBaseAgreesWithSamples() throws {
        // Matroska stamps in ms; the plan works on the same instants.
        let ms = (0..<200).map { i in PacketTiming(pts: Int64(i) * 20, dts: Int64(i) * 20, duration: 20, isKeyframe: true) }
        let cut = try #require(SoundCut.plan(timings: ms, timeBase: Rational(1, 1000), sampleRate: Self.rate,
                                             from: Timestamp(seconds: 1), to: Timestamp(seconds: 2), preroll: 3840, trim: .codecDelay))
        #expect(cut.firstSample == 48_000)
        #expect(ms[cut.keep.lowerBound].pts <= 1000 - 80)
        #expect(cut.startSkip == 48_000 - ms[cut.keep.lowerBound].pts * 48)
        #expect(cut.endDiscard == ms[cut.keep.upperBound - 1].pts * 48 + 960 - 96_000)
    }
}
