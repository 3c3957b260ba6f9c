import Foundation
import Media
import RecCore
import Testing
import TestPool

/// A generated sine through `AudioPipeline`, muxed with `Muxer`, decoded again by the ffmpeg CLI.
@Suite("AudioPipeline", .blocking)
struct AudioPipelineTests {
    struct Case: Sendable, CustomStringConvertible {
        var encoder: String
        var ext: String
        var input: AudioFormat
        var output: (rate: Int, channels: Int)
        /// Whether FFmpeg 5.1's muxer and demuxer hide the encoder's priming: MP4/MOV's edit list
        /// for AAC, WebM/Matroska's codec delay for Opus; not Matroska for AAC, nor MP4 for Opus.
        var hidesPriming = true
        var lossless: Bool { ["flac", "pcm_s16le", "pcm_s24le"].contains(encoder) }
        var description: String { "\(encoder) in .\(ext) from \(input) to \(output.rate) Hz, \(output.channels) ch" }
    }

    static let cases: [Case] = [
        Case(encoder: "aac", ext: "mp4", input: .s16(rate: 44_100, channels: 1), output: (48_000, 2)),
        Case(encoder: "aac", ext: "mov", input: .floatPlanar(rate: 48_000, channels: 2), output: (48_000, 2)),
        Case(encoder: "aac", ext: "mkv", input: .floatPlanar(rate: 48_000, channels: 1), output: (48_000, 2), hidesPriming: false),
        Case(encoder: "libopus", ext: "webm", input: .floatPlanar(rate: 48_000, channels: 1), output: (48_000, 2)),
        Case(encoder: "libopus", ext: "mkv", input: .s16(rate: 44_100, channels: 2), output: (48_000, 2)),
        Case(encoder: "libopus", ext: "mp4", input: .s16(rate: 48_000, channels: 1), output: (48_000, 1), hidesPriming: false),
        Case(encoder: "flac", ext: "mkv", input: .s16(rate: 44_100, channels: 1), output: (44_100, 2)),
        Case(encoder: "flac", ext: "mkv", input: .floatPlanar(rate: 44_100, channels: 2), output: (48_000, 2)),
        Case(encoder: "pcm_s16le", ext: "mov", input: .s16(rate: 48_000, channels: 1), output: (48_000, 2)),
        Case(encoder: "pcm_s24le", ext: "mkv", input: .floatPlanar(rate: 44_100, channels: 2), output: (48_000, 2)),
    ]

    /// 3 s of 440 Hz at half scale: the decoded file has the input's length at the output rate
    /// (within one encoder frame for lossy codecs, exactly for lossless), the same frequency and
    /// level on every channel, and packets that tile the timeline.
    @Test(arguments: cases)
    func roundTripKeepsLengthFrequencyAndLevel(_ c: Case) throws {
        let chunks = try SoundFixtures.sine(c.input, seconds: 3, chunk: 1000)
        let encoding = AudioEncoding(encoder: c.encoder, sampleRate: c.output.rate, channels: c.output.channels,
                                     bitrate: c.lossless ? nil : 128_000)
        let (packets, pipeline) = try SoundFixtures.encode(chunks, encoding)
        let path = Fixtures.temporary(c.ext)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try SoundFixtures.mux(packets, pipeline.parameters, to: path)
        let decoded = try SoundFixtures.decode(path, channels: c.output.channels)

        let expected = 3 * c.output.rate
        let padding = pipeline.parameters.initialPadding
        let length = decoded[0].count - (c.hidesPriming ? 0 : padding)
        #expect(abs(length - expected) <= (c.lossless ? 0 : pipeline.frameSize), "decoded \(decoded[0].count) samples, padding \(padding)")
        let middle = (c.output.rate / 4)..<(expected - c.output.rate / 4)
        for channel in decoded {
            #expect(abs(SoundFixtures.frequency(channel[middle], rate: c.output.rate) - 440) < 0.5)
            let rms = SoundFixtures.rms(channel[middle]), want = 0.5 / 2.0.squareRoot()
            #expect(abs(rms / want - 1) < (c.lossless ? 0.005 : 0.03), "rms \(rms), want \(want)")
        }

        let timeBase = Rational(1, Int32(c.output.rate))
        #expect(packets.allSatisfy { $0.isKeyframe && $0.stream == .sound(0) && $0.timeBase == timeBase && $0.dts == $0.pts })
        #expect(packets.allSatisfy { $0.captureTime == $0.presentationTime && ($0.duration > 0 || $0.data.isEmpty) })
        #expect(packets.first?.pts == -Int64(padding))
        for (a, b) in zip(packets, packets.dropFirst()) {
            #expect(a.pts < b.pts && a.pts + a.duration == b.pts, "packet at \(a.pts)+\(a.duration), next at \(b.pts)")
        }
        #expect(packets.reduce(0) { $0 + $1.duration } == Int64(expected + padding))
        #expect(pipeline.position == Int64(expected))
    }

    /// The priming / pre-skip each encoder declares, carried in the stream parameters as
    /// `avcodec_parameters_from_context` copies it: what MP4's edit list and WebM's codec delay hide.
    @Test(arguments: [("aac", 48_000, 1024, 1024), ("aac", 44_100, 1024, 1024), ("libopus", 48_000, 312, 960),
                      ("libopus", 24_000, 156, 480), ("flac", 48_000, 0, 4608), ("pcm_s16le", 48_000, 0, 1024),
                      ("pcm_s24le", 44_100, 0, 1024)])
    func parametersCarryThePriming(encoder: String, rate: Int, padding: Int, frameSize: Int) throws {
        let pipeline = try AudioPipeline(encoding: AudioEncoding(encoder: encoder, sampleRate: rate, channels: 2),
                                         input: .s16(rate: 48_000, channels: 2))
        let p = pipeline.parameters
        #expect(p.isAudio && p.sampleRate == rate && p.channels == 2 && p.timeBase == Rational(1, Int32(rate)))
        #expect(p.initialPadding == padding)
        #expect(pipeline.frameSize == frameSize)
    }

    /// PCM at 48 kHz both sides, so every sample can be compared: chunks of 4800 (0.1 s).
    static let pcm = AudioEncoding(encoder: "pcm_s16le", sampleRate: 48_000, channels: 1)

    /// The input sample `n` as s16 holds it.
    static func sine(_ n: Int) -> Float {
        Float(Int16((0.5 * sin(2 * Double.pi * 440 * Double(n) / 48_000) * 32768).rounded())) / 32768
    }

    /// The first channel (or all, with `channels`) as decoded from PCM in Matroska, and the end position.
    static func decodePCM(_ chunks: [AudioFrame], placements: [Int: AudioPlacement],
                          channels: Int = 1) throws -> (samples: [Float], all: [[Float]], position: Int64) {
        var encoding = pcm
        encoding.channels = channels
        let (packets, pipeline) = try SoundFixtures.encode(chunks, encoding, placements: placements)
        let path = Fixtures.temporary("mkv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try SoundFixtures.mux(packets, pipeline.parameters, to: path)
        let all = try SoundFixtures.decode(path, channels: channels)
        return (all[0], all, pipeline.position)
    }

    @Test func silenceInsertsExactlyThatManyZerosWhereTheChunkStarts() throws {
        // Chunks of 4000: 36.7 cycles each, so the tone is not at a zero where the chunk starts.
        let chunks = try SoundFixtures.sine(.s16(rate: 48_000, channels: 1), seconds: 3, chunk: 4000)
        let (samples, _, position) = try Self.decodePCM(chunks, placements: [10: AudioPlacement(silence: 2400)])
        #expect(samples.count == 144_000 + 2400 && position == 144_000 + 2400)
        let gap = SoundFixtures.longestSilence(samples)
        #expect(gap.start == 40_000 && gap.length == 2400)
        #expect(samples[39_999] == Self.sine(39_999) && samples[42_400] == Self.sine(40_000) && samples.last == Self.sine(143_999))
    }

    /// Resampled, the silence is rounded to whole input samples but never drifts: ±1 in all.
    @Test func resampledSilenceKeepsItsLength() throws {
        let chunks = try SoundFixtures.sine(.s16(rate: 44_100, channels: 1), seconds: 3, chunk: 4410)
        let placements = Dictionary(uniqueKeysWithValues: (5..<15).map { ($0, AudioPlacement(silence: 1001)) })
        let (samples, _, position) = try Self.decodePCM(chunks, placements: placements)
        #expect(abs(samples.count - (144_000 + 10_010)) <= 1 && abs(position - (144_000 + 10_010)) <= 1)
    }

    @Test func dropLeavesOutExactlyThatManyLeadingSamples() throws {
        let chunks = try SoundFixtures.sine(.s16(rate: 48_000, channels: 1), seconds: 3, chunk: 4800)
        let (samples, _, position) = try Self.decodePCM(chunks, placements: [10: AudioPlacement(drop: 1000), 20: AudioPlacement(drop: 99_999)])
        #expect(samples.count == 144_000 - 1000 - 4800 && position == Int64(samples.count))
        #expect(samples[47_999] == Self.sine(47_999) && samples[48_000] == Self.sine(49_000))
        #expect(samples[95_000 - 1] == Self.sine(95_999) && samples[95_000] == Self.sine(100_800))
    }

    /// +0.2 % over a 1 s chunk: 96 samples more (or fewer), ±1, and the position says so at once.
    /// Compensation turns resampling on midway; a mono source still reaches both sides at full level.
    @Test(arguments: [96, -96])
    func compensationMakesThatManyMoreSamples(delta: Int) throws {
        let chunks = try SoundFixtures.sine(.s16(rate: 48_000, channels: 1), seconds: 3, chunk: 48_000)
        let placement = AudioPlacement(compensation: delta, compensationDistance: 48_000)
        let (samples, all, position) = try Self.decodePCM(chunks, placements: [1: placement], channels: 2)
        #expect(abs(samples.count - (144_000 + delta)) <= 1 && abs(position - Int64(144_000 + delta)) <= 1)
        for channel in all {
            #expect(abs(SoundFixtures.frequency(channel[100_000..<140_000], rate: 48_000) - 440) < 0.5)
            #expect(abs(SoundFixtures.rms(channel[100_000..<140_000]) - 0.5 / 2.0.squareRoot()) < 0.002)
        }
    }

    /// `position` counts what the resampler and the FIFO hold, from `start(at:)`; frame pts follow it.
    @Test func positionCountsEverySampleGivenSoFar() throws {
        let chunks = try SoundFixtures.sine(.s16(rate: 44_100, channels: 1), seconds: 1, chunk: 441)
        let pipeline = try AudioPipeline(encoding: AudioEncoding(encoder: "aac", bitrate: 160_000), input: chunks[0].format)
        pipeline.start(at: 4800)
        #expect(pipeline.position == 4800)
        var packets: [EncodedPacket] = []
        for (n, chunk) in chunks.enumerated() {
            try pipeline.encode(chunk, placement: n == 50 ? AudioPlacement(silence: 480) : .asIs) { p throws(FFmpegError) in packets.append(p) }
            let given = Int64(n + 1) * 480 + (n >= 50 ? 480 : 0)
            #expect(abs(pipeline.position - 4800 - given) <= 1, "after chunk \(n): \(pipeline.position)")
        }
        try pipeline.finish { p throws(FFmpegError) in packets.append(p) }
        let first = try #require(packets.first)
        #expect(first.pts == 4800 - 1024, "first packet \(first.pts)")
        #expect(abs(pipeline.position - (4800 + 48_480)) <= 1)
    }

    /// libopus pads its last frame and says so in `AV_PKT_DATA_SKIP_SAMPLES`; carried to the
    /// muxer, WebM's DiscardPadding makes the decoded length exact.
    @Test func opusSkipSamplesReachTheFile() throws {
        let chunks = try SoundFixtures.sine(.floatPlanar(rate: 48_000, channels: 2), seconds: 1.01)
        let (packets, pipeline) = try SoundFixtures.encode(chunks, AudioEncoding(encoder: "libopus", bitrate: 128_000))
        #expect(packets.last?.sideData.contains { $0.kind == PacketSideData.skipSamplesKind } == true)
        #expect(packets.dropLast().allSatisfy { $0.sideData.isEmpty })
        let path = Fixtures.temporary("webm")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try SoundFixtures.mux(packets, pipeline.parameters, to: path)
        #expect(try SoundFixtures.decode(path, channels: 2)[0].count == 48_480)
    }

    /// The level meter reads each chunk's converted samples; a mono source reaches both sides at
    /// full level.
    @Test func peakFollowsEachChunk() throws {
        let input = AudioFormat.s16(rate: 48_000, channels: 1)
        let pipeline = try AudioPipeline(encoding: AudioEncoding(encoder: "aac", bitrate: 160_000), input: input)
        let loud = try SoundFixtures.sine(input, seconds: 0.1, amplitude: 0.5, chunk: 4800)[0]
        let quiet = try SoundFixtures.sine(input, seconds: 0.1, amplitude: 0, chunk: 4800)[0]
        try pipeline.encode(loud, placement: .asIs) { _ throws(FFmpegError) in }
        #expect(abs(pipeline.lastPeak - 0.5) < 0.01)
        try pipeline.encode(quiet, placement: .asIs) { _ throws(FFmpegError) in }
        #expect(pipeline.lastPeak < 0.01)
    }

    @Test(arguments: [
        (AudioEncoding(encoder: "libopus", sampleRate: 44_100), "libopus cannot encode 44100 Hz; use one of 48000, 24000, 16000, 12000, 8000"),
        (AudioEncoding(encoder: "aac", sampleRate: 50_000), "aac cannot encode 50000 Hz; use one of 96000, 88200"),
        (AudioEncoding(encoder: "mp3x"), "no audio encoder 'mp3x' in this FFmpeg"),
        (AudioEncoding(encoder: "libx264"), "no audio encoder 'libx264' in this FFmpeg"),
    ])
    func refusesWhatTheEncoderCannotDo(encoding: AudioEncoding, message: String) {
        #expect {
            _ = try AudioPipeline(encoding: encoding, input: .s16(rate: 48_000, channels: 2))
        } throws: { error in
            let text = (error as? FFmpegError)?.operation ?? "\(error)"
            if !text.contains(message) { Issue.record("got: \(text)") }
            return text.contains(message)
        }
    }

    @Test func refusesAChunkOfAnotherFormat() throws {
        let pipeline = try AudioPipeline(encoding: Self.pcm, input: .s16(rate: 48_000, channels: 1))
        let other = try AudioFrame(format: .s16(rate: 44_100, channels: 1), samples: 10)
        #expect(throws: FFmpegError.self) { try pipeline.encode(other, placement: .asIs) { _ throws(FFmpegError) in } }
    }
}
