import Foundation
import Media
import RecCore
import Testing
import TestPool

/// A camera's sound re-encoded to AAC 48 kHz for MP4 (`SoundTranscoder`): inputs made by the ffmpeg
/// CLI with a click every second, demuxed with `Demuxer`, transcoded packet by packet, muxed with
/// `Muxer`, and decoded again by the ffmpeg CLI (an independent decoder). Clicks are found by
/// their peak, in the input and in the output, and must agree within 1 ms.
@Suite("SoundTranscoder", .blocking)
struct SoundTranscoderTests {
    static let aac = AudioEncoding(encoder: "aac", sampleRate: 48_000, channels: 2, bitrate: 128_000)
    static let seconds = 5
    /// One AAC frame at 48 kHz, in seconds.
    static let aacFrame = 1024.0 / 48_000

    struct Source: Sendable, CustomStringConvertible {
        var codec: String
        var ext: String
        var rate: Int
        var channels = 1
        var description: String { "\(codec) \(rate) Hz in .\(ext)" }

        /// Makes the input: a click of 0.9 at 0.25 s into every second, silence between, in packets of
        /// 20 ms where the codec takes any length (as RTP carries G.711).
        func make(in folder: String) throws -> String {
            let path = "\(folder)/input-\(codec).\(ext)"
            let clicks = "aevalsrc=exprs='0.9*eq(mod(n\\,\(rate))\\,\(rate / 4))':s=\(rate):d=\(SoundTranscoderTests.seconds)"
            var arguments = ["-f", "lavfi", "-i", clicks, "-ac", "\(channels)", "-c:a", codec]
            if codec.hasPrefix("pcm_") { arguments += ["-af", "asetnsamples=n=\(rate / 50):p=0"] }
            if codec == "libopus" || codec == "aac" { arguments += ["-b:a", "96k"] }
            try Fixtures.ffmpeg(arguments + [path])
            return path
        }
    }

    static let sources: [Source] = [
        Source(codec: "pcm_alaw", ext: "mka", rate: 8_000),
        Source(codec: "pcm_mulaw", ext: "mka", rate: 8_000),
        Source(codec: "libopus", ext: "mka", rate: 48_000),
        // Matroska rounds AAC's 23.2 ms packets to the millisecond: jitter to absorb.
        Source(codec: "aac", ext: "mka", rate: 44_100, channels: 2),
    ]

    /// The whole file through: as long as the input within one AAC frame, every click where it
    /// was within 1 ms, nothing filled or dropped, and a file ffprobe and ffmpeg read without a word.
    @Test(arguments: sources)
    func keepsLengthAndClicks(_ source: Source) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = try source.make(in: folder)
        let output = "\(folder)/out.mp4"
        let transcoder = try Self.transcode(input, to: output)
        #expect(transcoder.gaps == 0 && transcoder.droppedSamples == 0 && transcoder.damagedPackets == 0)

        let before = try Self.decode(input), after = try Self.decode(output)
        let difference = Self.length(after, rate: 48_000) - Self.length(before, rate: source.rate)
        #expect(abs(difference) <= Self.aacFrame, "output \(after.count) samples at 48 kHz, input \(before.count) at \(source.rate)")
        let want = Self.clicks(before, rate: source.rate), got = Self.clicks(after, rate: 48_000)
        #expect(want.count == Self.seconds && got.count == want.count, "clicks in: \(want), out: \(got)")
        for (w, g) in zip(want, got) { #expect(abs(w - g) < 0.001, "click at \(g) s, input's at \(w) s") }
        #expect(try Self.probeErrors(output).isEmpty)
    }

    /// Ten 20 ms packets of G.711 lost, the second click among them: a 200 ms gap in the output,
    /// silent, the file as long as the input, and the clicks after it where they were.
    @Test func lostPacketsLeaveAGapOfTheSameLength() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = try Source(codec: "pcm_alaw", ext: "mka", rate: 8_000).make(in: folder)
        let output = "\(folder)/out.mp4"
        let transcoder = try Self.transcode(input, to: output) { packets in
            Array(packets[..<60] + packets[70...])
        }
        #expect(transcoder.gaps == 1 && transcoder.gapSamples == 9_600)

        let before = try Self.decode(input), after = try Self.decode(output)
        let difference = Self.length(after, rate: 48_000) - Self.length(before, rate: 8_000)
        #expect(abs(difference) <= Self.aacFrame, "output \(after.count) samples at 48 kHz, input \(before.count) at 8 kHz")
        let want = Self.clicks(before, rate: 8_000).filter { !(1.2..<1.4).contains($0) }
        let got = Self.clicks(after, rate: 48_000)
        #expect(want.count == Self.seconds - 1 && got.count == want.count, "clicks in: \(want), out: \(got)")
        for (w, g) in zip(want, got) { #expect(abs(w - g) < 0.001, "click at \(g) s, input's at \(w) s") }
        // Inside the gap, away from AAC's spread at its edges: nothing.
        let gap = after[(48_000 * 1_210 / 1_000)..<(48_000 * 1_390 / 1_000)]
        #expect(gap.allSatisfy { abs($0) < 0.01 }, "the gap holds \(gap.map(abs).max() ?? 0)")
        #expect(try Self.probeErrors(output).isEmpty)
    }

    /// The output starts where the input's first packet does (its priming before it), on the
    /// input's stream, with capture times moved as the input's were.
    @Test func keepsTheInputsStartStreamAndCaptureTimes() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let demuxer = try Demuxer(path: try Source(codec: "pcm_mulaw", ext: "mka", rate: 8_000).make(in: folder))
        let stream = try #require(demuxer.streams.first { $0.parameters.isAudio })
        #expect(stream.parameters.codec == .pcmMuLaw)
        let transcoder = try SoundTranscoder(input: stream.parameters, encoding: Self.aac)
        var out: [EncodedPacket] = []
        while var p = try demuxer.read() {
            p.pts += 2_500  // 2.5 s later (Matroska's milliseconds)
            p.dts += 2_500
            p.stream = .sound(2)
            p.streamIndex = 5
            p.captureTime = Timestamp(value: p.pts, timeBase: p.timeBase).rescaled(to: .microseconds)
            p.captureTime?.value -= 2_000_000
            try transcoder.transcode(p) { out.append($0) }
        }
        try transcoder.finish { out.append($0) }
        let first = try #require(out.first)
        #expect(transcoder.parameters.initialPadding == 1024)
        #expect(first.pts + 1024 == 120_000 && first.timeBase == Rational(1, 48_000))
        #expect(out.allSatisfy { $0.stream == .sound(2) && $0.streamIndex == 5 && $0.isKeyframe })
        #expect(out.allSatisfy { $0.captureTime?.value == Timestamp(value: $0.pts, timeBase: $0.timeBase).rescaled(to: .microseconds).value - 2_000_000 })
        #expect(zip(out, out.dropFirst()).allSatisfy { $0.pts + $0.duration == $1.pts }, "packets tile the timeline")
    }

    /// The packets a clip plans its cut from before re-encoding (`ReencodedSoundTimings`) are the
    /// transcoder's, one for one: G.711 whole, from a later start, and with packets lost.
    @Test(arguments: [0, 1, 2]) func predictedTimingsAreTheTranscodersPackets(_ shape: Int) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let demuxer = try Demuxer(path: try Source(codec: "pcm_alaw", ext: "mka", rate: 8_000).make(in: folder))
        let stream = try #require(demuxer.streams.first { $0.parameters.isAudio })
        var packets: [EncodedPacket] = []
        while let p = try demuxer.read() { packets.append(p) }
        switch shape {
        case 1: packets = Array(packets[7...])
        case 2: packets = Array(packets[..<60] + packets[70..<243])
        default: break
        }
        let transcoder = try SoundTranscoder(input: stream.parameters, encoding: Self.aac)
        var out: [EncodedPacket] = []
        for p in packets { try transcoder.transcode(p) { out.append($0) } }
        try transcoder.finish { out.append($0) }
        let p = transcoder.parameters
        let predicted = ReencodedSoundTimings.predict(input: packets.map(PacketTiming.init), timeBase: stream.timeBase,
                                                      rate: p.sampleRate, frameSize: p.frameSize, priming: p.initialPadding)
        let made = out.map(PacketTiming.init)
        let differs = zip(predicted, made).first { $0 != $1 }.map { "\($0) for \($1)" } ?? "none"
        #expect(predicted == made, "\(predicted.count) predicted, \(made.count) made; the first that differs: \(differs)")
    }

    /// An Opus packet the decoder cannot read is left out: its 20 ms become a gap, and the sound
    /// goes on.
    @Test func aDamagedPacketBecomesAGap() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = try Source(codec: "libopus", ext: "mka", rate: 48_000).make(in: folder)
        let output = "\(folder)/out.mp4"
        let transcoder = try Self.transcode(input, to: output) { packets in
            var packets = packets
            packets[100].data = [0xFF]  // TOC code 3 without its frame count
            return packets
        }
        #expect(transcoder.damagedPackets == 1 && transcoder.gaps == 1)
        let before = try Self.decode(input), after = try Self.decode(output)
        #expect(abs(Double(after.count) - Double(before.count)) <= 1024)
        let want = Self.clicks(before, rate: 48_000), got = Self.clicks(after, rate: 48_000)
        #expect(got.count == want.count && zip(want, got).allSatisfy { abs($0 - $1) < 0.001 }, "clicks in: \(want), out: \(got)")
    }

    // MARK: - Helpers

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rec-transcode-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Demuxes the input's sound, lets `alter` change its packets, transcodes them to AAC and
    /// writes them as the only stream of `output`.
    static func transcode(_ input: String, to output: String,
                          alter: ([EncodedPacket]) -> [EncodedPacket] = { $0 }) throws -> SoundTranscoder {
        FFmpegLog.quiet()
        let demuxer = try Demuxer(path: input)
        let stream = try #require(demuxer.streams.first { $0.parameters.isAudio })
        var packets: [EncodedPacket] = []
        while let p = try demuxer.read() {
            if p.streamIndex == stream.index { packets.append(p) }
        }
        let transcoder = try SoundTranscoder(input: stream.parameters, encoding: aac)
        var out: [EncodedPacket] = []
        for p in alter(packets) { try transcoder.transcode(p) { out.append($0) } }
        try transcoder.finish { out.append($0) }
        try SoundFixtures.mux(out, transcoder.parameters, to: output)
        return transcoder
    }

    /// The file's sound, mixed to one channel, as the ffmpeg CLI decodes it.
    static func decode(_ path: String) throws -> [Float] {
        try SoundFixtures.decode(path, channels: 1, arguments: ["-ac", "1"])[0]
    }

    static func length(_ samples: [Float], rate: Int) -> Double { Double(samples.count) / Double(rate) }

    /// Where each second's loudest sample is, in seconds, for the seconds that have a click (a
    /// peak above 0.3).
    static func clicks(_ samples: [Float], rate: Int) -> [Double] {
        stride(from: 0, to: samples.count, by: rate).compactMap { start in
            let window = samples[start..<min(samples.count, start + rate)]
            guard let peak = window.indices.max(by: { abs(window[$0]) < abs(window[$1]) }), abs(window[peak]) > 0.3 else { return nil }
            return Double(peak) / Double(rate)
        }
    }

    /// What ffprobe and a full decode by the ffmpeg CLI say on stderr at level "error".
    static func probeErrors(_ path: String) throws -> String {
        let probe = try SoundFixtures.run("/usr/bin/ffprobe", ["-v", "error", "-show_streams", "-count_packets", path])
        let decode = try SoundFixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-f", "null", "-"])
        let streams = String(decoding: probe.data, as: UTF8.self)
        #expect(streams.contains("codec_name=aac") && streams.contains("sample_rate=48000"))
        return probe.errors + decode.errors
    }
}
