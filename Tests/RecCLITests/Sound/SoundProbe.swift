import Foundation

/// Measures a media file's picture and sound from outside, with the ffmpeg and ffprobe command
/// lines and none of the project's own code, so the sound acceptance tests check the recorder
/// with a tool that cannot share its mistakes.
///
/// The signals are the stand-in camera's and tone's: the second mark (a block in the bottom-left
/// corner, an eighth of the picture each way, lit on the frame that starts each whole second)
/// and the click at each whole second (a 2 ms burst, +0.8 then −0.8, over a 440 Hz sine at 0.1).
///
/// Times are seconds on the file's presentation timeline as a player shows it: 0 is the first
/// video frame ffmpeg presents (after edit lists and the frames they discard), and audio is placed
/// by its decoded frames' timestamps, after ffmpeg has dropped the AAC priming (the MP4 edit
/// list's media time) or the Opus pre-skip (Matroska's CodecDelay). A file with no video is timed
/// from its first decoded sample. Decoding runs with `-copyts`, so nothing is shifted to zero
/// behind our back, and one line of ffmpeg's `showinfo`/`ashowinfo` per frame says when it is.
enum SoundProbe {
    /// A frame flashes when the mean luma of its (inset) second mark is above this.
    static let litLuma = 128.0
    /// A click is the first sample above this in magnitude after `clickQuiet` seconds below it.
    static let clickLevel: Float = 0.5
    static let clickQuiet = 0.5

    /// Presentation times of the frames whose second mark is lit.
    static func flashes(in path: String) throws -> [Double] {
        flashes(of: try markLuma(in: path))
    }

    /// Presentation times of the clicks' onsets.
    static func clicks(in path: String) throws -> [Double] {
        let audio = try decodedAudio(in: path)
        return clicks(of: audio, zero: try firstVideoTime(in: path) ?? audio.time(ofSample: 0))
    }

    /// The indices of the clicks in `samples`: each first sample above `clickLevel` after at
    /// least `clickQuiet` seconds of samples at or below it. Before the first sample counts as
    /// quiet, so a click at sample 0 is one.
    static func onsets(in samples: [Float], rate: Int) -> [Int] {
        let quiet = Int((clickQuiet * Double(rate)).rounded(.up))
        var onsets: [Int] = []
        var lastLoud = -quiet - 1
        for (i, sample) in samples.enumerated() where abs(sample) > clickLevel {
            if i - lastLoud > quiet { onsets.append(i) }
            lastLoud = i
        }
        return onsets
    }

    /// Each flash paired with the click nearest it (in sound stream `stream`, from 0): `second` is
    /// the flash's time, `error` the click's time minus the flash's (positive: sound late).
    static func syncErrors(in path: String, stream: Int = 0) throws -> [(second: Double, error: Double)] {
        let frames = try markLuma(in: path)
        let clicks = clicks(of: try decodedAudio(in: path, stream: stream), zero: frames[0].time)
        guard !clicks.isEmpty else { throw Tool.Failure("\(path) has no clicks") }
        return flashes(of: frames).map { flash in
            let nearest = clicks.min { abs($0 - flash) < abs($1 - flash) }!
            return (flash, nearest - flash)
        }
    }

    /// The first audio stream decoded, downmixed to mono and resampled to `rate`, from its first
    /// decoded sample.
    static func samples(in path: String, rate: Int) throws -> [Float] {
        let out = try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-map", "0:a:0", "-vn", "-sn", "-dn",
                                          "-ac", "1", "-ar", "\(rate)", "-c:a", "pcm_f32le", "-f", "f32le", "pipe:1"])
        return floats(out.stdout)
    }

    /// Seconds of sound decoded: sample count over the sample rate.
    static func audioDuration(in path: String) throws -> Double {
        let audio = try decodedAudio(in: path)
        return Double(audio.samples.count) / Double(audio.rate)
    }

    /// When the first decoded sample (`samples(in:rate:)[0]`) is presented: negative when sound
    /// starts before the picture, as AAC's priming does in Matroska, which has no edit list to
    /// hide it.
    static func audioStart(in path: String) throws -> Double {
        let audio = try decodedAudio(in: path)
        return audio.time(ofSample: 0) - (try firstVideoTime(in: path) ?? audio.time(ofSample: 0))
    }

    /// Seconds of picture presented: from the first frame's time to the end of the last (its time
    /// plus its duration, or the interval before it where the file gives none), as ffprobe decodes
    /// them.
    static func videoDuration(in path: String) throws -> Double {
        let out = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                           "frame=best_effort_timestamp_time,pkt_duration_time", "-of", "csv=p=0", path])
        let frames = String(decoding: out.stdout, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            return Double(fields[0]).map { (time: $0, duration: fields.count > 1 ? Double(fields[1]) : nil) }
        }.sorted { $0.time < $1.time }
        guard let first = frames.first, let last = frames.last else {
            throw Tool.Failure("ffprobe gave no timed video frames for \(path)")
        }
        let interval = frames.count > 1 ? last.time - frames[frames.count - 2].time : 0
        return last.time + (last.duration ?? interval) - first.time
    }
}

extension SoundProbe {
    /// Where the mark is measured in a `width × height` picture: the bottom-left eighth each way,
    /// inset by a sixth of its shorter side (at least 2 pixels), clear of the edges that lossy
    /// coding blurs into the rest of the picture. Even, so crops stay on chroma sites.
    static func markCrop(width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let w = max(2, width / 8 & ~1), h = max(2, height / 8 & ~1)
        let inset = max(2, min(w, h) / 6 & ~1)
        return (inset, height - h + inset, max(2, w - 2 * inset), max(2, h - 2 * inset))
    }

    /// Every decoded video frame's time and the mean luma (0–255) of its inset mark; throws when
    /// there are none.
    static func markLuma(in path: String) throws -> [(time: Double, luma: Double)] {
        let size = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                                            "-of", "csv=p=0", path])
        let numbers = String(decoding: size.stdout, as: UTF8.self).split(whereSeparator: { $0 == "," || $0.isNewline })
        guard numbers.count >= 2, let width = Int(numbers[0]), let height = Int(numbers[1]) else {
            throw Tool.Failure("\(path) has no video stream")
        }
        let crop = markCrop(width: width, height: height)
        let run = try Tool.run("ffmpeg", ["-nostdin", "-nostats", "-hide_banner", "-v", "info", "-copyts", "-i", path,
                                          "-map", "0:v:0", "-an", "-sn", "-dn", "-fps_mode", "passthrough",
                                          "-vf", "crop=\(crop.width):\(crop.height):\(crop.x):\(crop.y):exact=1,format=gray,showinfo",
                                          "-f", "null", "-"])
        var timeBase: Double?
        var frames: [(time: Double, luma: Double)] = []
        for line in run.stderr.split(separator: "\n") where line.contains("Parsed_showinfo") {
            if let tb = field("config in time_base:", in: line, upTo: ",") {
                timeBase = try rational(tb)
            } else if let pts = field(" pts:", in: line), let mean = field("mean:[", in: line) {
                guard let timeBase, let pts = Int64(pts), let luma = Double(mean.prefix { $0 != "]" }) else {
                    throw Tool.Failure("unexpected showinfo line: \(line)")
                }
                frames.append((Double(pts) * timeBase, luma))
            }
        }
        guard !frames.isEmpty else { throw Tool.Failure("ffmpeg decoded no video frames from \(path)") }
        return frames
    }

    static func flashes(of frames: [(time: Double, luma: Double)]) -> [Double] {
        guard let zero = frames.first?.time else { return [] }
        return frames.filter { $0.luma > litLuma }.map { $0.time - zero }
    }

    static func clicks(of audio: DecodedAudio, zero: Double) -> [Double] {
        onsets(in: audio.samples, rate: audio.rate).map { audio.time(ofSample: $0) - zero }
    }

    /// The time of the first video frame ffmpeg presents, or nil when the file has no video.
    static func firstVideoTime(in path: String) throws -> Double? {
        let streams = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "stream=index",
                                               "-of", "csv=p=0", path])
        return streams.stdout.isEmpty ? nil : try markLuma(in: path)[0].time
    }

    /// An audio stream (the first unless told) decoded at its own rate and downmixed to mono, with the timestamp
    /// and sample count of every decoded frame.
    struct DecodedAudio {
        var samples: [Float]
        var rate: Int
        var frames: [(start: Int, time: Double)]     // first sample index, its time

        /// A sample's time: its frame's timestamp plus its place in the frame.
        func time(ofSample index: Int) -> Double {
            var low = 0, high = frames.count - 1
            while low < high {
                let mid = (low + high + 1) / 2
                if frames[mid].start <= index { low = mid } else { high = mid - 1 }
            }
            return frames[low].time + Double(index - frames[low].start) / Double(rate)
        }
    }

    static func decodedAudio(in path: String, stream: Int = 0) throws -> DecodedAudio {
        let run = try Tool.run("ffmpeg", ["-nostdin", "-nostats", "-hide_banner", "-v", "info", "-copyts", "-i", path,
                                          "-map", "0:a:\(stream)", "-vn", "-sn", "-dn", "-af", "ashowinfo", "-ac", "1",
                                          "-c:a", "pcm_f32le", "-f", "f32le", "pipe:1"])
        var frames: [(start: Int, time: Double)] = []
        var rate: Int?, count = 0
        for line in run.stderr.split(separator: "\n") where line.contains("Parsed_ashowinfo") {
            guard let pts = field(" pts:", in: line).flatMap({ Int64($0) }), let shown = field("pts_time:", in: line).flatMap({ Double($0) }),
                  let r = field("rate:", in: line).flatMap({ Int($0) }), let n = field("nb_samples:", in: line).flatMap({ Int($0) }) else {
                throw Tool.Failure("unexpected ashowinfo line: \(line)")
            }
            // ffmpeg hands audio to its filters in 1/rate time base; pts_time (6 digits) checks that.
            let time = Double(pts) / Double(r)
            guard rate == nil || rate == r, abs(time - shown) <= max(1e-6, abs(shown) * 1e-5) else {
                throw Tool.Failure("audio changes rate or time base mid-stream: \(line)")
            }
            rate = r
            frames.append((count, time))
            count += n
        }
        let samples = floats(run.stdout)
        guard let rate, !frames.isEmpty else { throw Tool.Failure("\(path) has no audio frames") }
        guard samples.count == count else {
            throw Tool.Failure("ffmpeg wrote \(samples.count) samples for frames of \(count)")
        }
        return DecodedAudio(samples: samples, rate: rate, frames: frames)
    }

    /// The text after `key` in `line`, up to `end` (or white space).
    static func field(_ key: String, in line: Substring, upTo end: Character? = nil) -> String? {
        guard let range = line.range(of: key) else { return nil }
        let rest = line[range.upperBound...].drop { $0 == " " }
        return String(rest.prefix { end == nil ? !$0.isWhitespace : $0 != end }).trimmingCharacters(in: .whitespaces)
    }

    static func rational(_ text: String) throws -> Double {
        let parts = text.split(separator: "/").compactMap { Double($0) }
        guard parts.count == 2, parts[1] != 0 else { throw Tool.Failure("not a time base: \(text)") }
        return parts[0] / parts[1]
    }

    static func floats(_ data: Data) -> [Float] {
        [Float](unsafeUninitializedCapacity: data.count / MemoryLayout<Float>.size) { buffer, count in
            count = buffer.count
            _ = data.copyBytes(to: buffer)
        }
    }
}
