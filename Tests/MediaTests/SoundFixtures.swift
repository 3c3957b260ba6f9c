import Foundation
import Media
import RecCore

/// Sound made by the tests: a sine in `AudioFrame`s, run through `AudioPipeline`, muxed with
/// `Muxer`, and decoded again by the ffmpeg CLI (an independent decoder).
enum SoundFixtures {
    /// `seconds` of a sine of `frequency` Hz and peak `amplitude` on every channel, in chunks of
    /// `chunk` samples (the last one shorter).
    static func sine(_ format: AudioFormat, seconds: Double, frequency: Double = 440, amplitude: Float = 0.5,
                     chunk: Int = 1024) throws -> [AudioFrame] {
        let total = Int((seconds * Double(format.sampleRate)).rounded())
        var frames: [AudioFrame] = []
        var first = 0
        while first < total {
            let count = min(chunk, total - first)
            let frame = try AudioFrame(format: format, samples: count,
                                       time: Timestamp(value: Int64(first), timeBase: Rational(1, Int32(format.sampleRate))))
            let start = first
            frame.fill { i, _ in amplitude * Float(sin(2 * Double.pi * frequency * Double(start + i) / Double(format.sampleRate))) }
            frames.append(frame)
            first += count
        }
        return frames
    }

    /// Runs the chunks through a pipeline, each with its placement (by chunk index; `.asIs`
    /// otherwise), and returns every packet.
    static func encode(_ chunks: [AudioFrame], _ encoding: AudioEncoding, start: Int64 = 0,
                       placements: [Int: AudioPlacement] = [:]) throws -> (packets: [EncodedPacket], pipeline: AudioPipeline) {
        FFmpegLog.quiet()
        let pipeline = try AudioPipeline(encoding: encoding, input: chunks[0].format)
        pipeline.start(at: start)
        var packets: [EncodedPacket] = []
        for (n, chunk) in chunks.enumerated() {
            try pipeline.encode(chunk, placement: placements[n] ?? .asIs) { p throws(FFmpegError) in packets.append(p) }
        }
        try pipeline.finish { p throws(FFmpegError) in packets.append(p) }
        return (packets, pipeline)
    }

    /// Writes the packets as the only stream of a file.
    static func mux(_ packets: [EncodedPacket], _ parameters: CodecParameters, to path: String) throws {
        let container = ContainerFormat(path: path)!
        let muxer = try Muxer(path: path, container: container.muxerName, streams: [parameters])
        for var p in packets {
            p.streamIndex = 0
            try muxer.write(p)
        }
        try muxer.finish()
    }

    /// Decodes a file's sound with the ffmpeg CLI into 32-bit float, one array per channel;
    /// `arguments` go before the output's (`-ac 1` mixes to one channel).
    static func decode(_ path: String, channels: Int, arguments: [String] = []) throws -> [[Float]] {
        let run = try run("/usr/bin/ffmpeg", ["-v", "error", "-i", path] + arguments + ["-f", "f32le", "-"])
        guard run.status == 0 else { throw RecError.runtime("ffmpeg could not decode \(path): \(run.errors)") }
        let samples = run.data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        if channels == 1 { return [samples] }
        return (0..<channels).map { c in stride(from: c, to: samples.count, by: channels).map { samples[$0] } }
    }

    /// Runs a tool to its end: what it wrote on stdout, on stderr (which must stay small: it is
    /// read after stdout ends), and its exit status.
    static func run(_ tool: String, _ arguments: [String]) throws -> (data: Data, errors: String, status: Int32) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = arguments
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (data, errors, p.terminationStatus)
    }

    /// The frequency of a tone from its upward zero crossings, in Hz.
    static func frequency(_ samples: ArraySlice<Float>, rate: Int) -> Double {
        var crossings: [Int] = []
        var previous = samples.first ?? 0
        for (i, s) in zip(samples.indices, samples) {
            if previous < 0 && s >= 0 { crossings.append(i) }
            previous = s
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) * Double(rate) / Double(last - first)
    }

    /// Root mean square of the samples.
    static func rms(_ samples: ArraySlice<Float>) -> Double {
        (samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))).squareRoot()
    }

    /// The longest run of exact zeros: where it starts and how long it is.
    static func longestSilence(_ samples: [Float]) -> (start: Int, length: Int) {
        var best = (start: 0, length: 0), start = 0, length = 0
        for (i, s) in samples.enumerated() {
            if s == 0 { length += 1 } else { length = 0 }
            if length == 1 { start = i }
            if length > best.length { best = (start, length) }
        }
        return best
    }
}
