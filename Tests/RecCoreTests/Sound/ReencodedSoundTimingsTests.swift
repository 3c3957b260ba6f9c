import Testing
@testable import RecCore

/// The packets a re-encoded sound stream will have, from the input's times alone.
@Suite struct ReencodedSoundTimingsTests {
    /// G.711 in Matroska: 20 ms packets in milliseconds, from `start` ms.
    static func g711(from start: Int64, count: Int, duration: Int64 = 20) -> [PacketTiming] {
        (0..<count).map { PacketTiming(pts: start + Int64($0) * 20, dts: start + Int64($0) * 20, duration: duration, isKeyframe: true) }
    }

    static func predict(_ input: [PacketTiming]) -> [PacketTiming] {
        ReencodedSoundTimings.predict(input: input, timeBase: Rational(1, 1000), rate: 48_000, frameSize: 1024, priming: 1024)
    }

    /// One second from 0.5 s: AAC frames from 1024 samples before the first, tiling the timeline
    /// to the input's end; the last says how much of it is real.
    @Test func wholeFramesFromThePrimingToTheEnd() throws {
        let out = Self.predict(Self.g711(from: 500, count: 50))
        // 48,000 samples and the priming: 47 whole frames and 896 samples.
        #expect(out.count == 48)
        let (first, last) = (try #require(out.first), try #require(out.last))
        #expect(first.pts == 24_000 - 1024)
        #expect(zip(out, out.dropFirst()).allSatisfy { $0.pts + $0.duration == $1.pts && $0.duration == 1024 })
        #expect(last.pts + last.duration == 72_000)
        #expect(last.duration == 896)
        #expect(out.allSatisfy { $0.dts == $0.pts && $0.isKeyframe })
    }

    /// A gap is filled, so the frames run on through it; a last packet without a duration lasts
    /// as long as the one before.
    @Test func gapsAreFilledAndAMissingLastDurationIsTheOneBefore() throws {
        var input = Self.g711(from: 0, count: 10) + Self.g711(from: 400, count: 10)
        input[input.count - 1].duration = 0
        let out = Self.predict(input)
        let last = try #require(out.last)
        #expect(last.pts + last.duration == 600 * 48)
        #expect(out.count == (600 * 48 + 1024 + 1023) / 1024)
    }

    @Test func noTimeNoPackets() {
        #expect(Self.predict([]).isEmpty)
        #expect(Self.predict(Self.g711(from: 100, count: 1, duration: 0)).isEmpty)
    }
}
