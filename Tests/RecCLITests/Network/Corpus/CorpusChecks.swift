import Foundation
import Testing
import TestServers

/// The checks every corpus row goes through (issue 39, "Done when"), each reading the files with
/// ffmpeg, ffprobe and mpv and rec's own reports, and each failing with its figures.
struct CorpusChecks {
    let camera: Camera
    let take: CorpusTake
    /// The recording's frames in presentation order: ffprobe's time and the decoded counter.
    let recorded: [(time: Double, counter: Int)]
    let frame: Double
    /// The session's time when it saw the server go (the ring's end then).
    let outage: Double
    /// Where the reconnected server's pictures begin: its counter starts again at 0. (Not at
    /// `outage`: a B-frame stream's last pictures of the first connection are let out when it
    /// ends, after the ring's end the session reported then.)
    var reconnected: Int {
        recorded.indices.dropFirst().first { recorded[$0].counter != recorded[$0 - 1].counter + 1 } ?? recorded.count
    }
    var before: ArraySlice<(time: Double, counter: Int)> { recorded[..<reconnected] }
    var after: ArraySlice<(time: Double, counter: Int)> { recorded[reconnected...] }

    init(_ camera: Camera, _ take: CorpusTake) throws {
        self.camera = camera
        self.take = take
        frame = 1 / Double(camera.fps)
        let counters = try NetworkClip.counters(take.recording, width: Camera.width, height: Camera.height)
        let times = try NetworkClip.frames(take.recording).map(\.time)
        // Paired when both tools saw the same frames; `picturesAreCountedOnce` reports when not.
        recorded = times.count == counters.count ? Array(zip(times, counters)) : []
        #expect(times.count == counters.count, "ffprobe times \(times.count) frames, ffmpeg decodes \(counters.count)")
        outage = Self.number((Self.object(take.away)["extra"] as? [String: Any])?["ring_end"]) ?? .infinity
        #expect(take.away?.status == 0 && outage.isFinite, "the killed server was not noticed: \(take.away?.output ?? "") \(take.away?.error ?? "")")
        #expect(take.back?.status == 0, "no pictures after the server came back: \(take.back?.error ?? "")")
    }

    static func object(_ result: RecBinary.Result?) -> [String: Any] { NetworkClip.object(result?.output ?? "") }

    static func number(_ value: Any?) -> Double? {
        (value as? Double) ?? (value as? Int).map(Double.init) ?? (value as? String).flatMap(Double.init)
    }

    /// The recorded counters of the frames presented in [from, to) on the session's timeline
    /// (the recording's time 0 is the session's), each frame judged at its middle.
    func counters(from: Double, to: Double) -> [Int] {
        recorded.filter { $0.time + frame / 2 >= from && $0.time + frame / 2 < to }.map(\.counter)
    }

    /// rec's frame count (the stop summary) is the number of pictures ffmpeg decodes from the
    /// recording, which holds every picture the camera sent from the first, once, in order, on
    /// each connection (the server, started again, sends its pictures from the first again).
    func picturesAreCountedOnce() throws {
        let counters = recorded.map(\.counter)
        let summary = Self.number(Self.object(take.stop)["frames"]).map(Int.init)
        #expect(summary == counters.count, "rec counted \(summary ?? -1) frames, ffmpeg decodes \(counters.count)")
        for (run, frames) in [("first", before.map(\.counter)), ("after the reconnect", after.map(\.counter))] {
            #expect(NetworkClip.consecutive(frames),
                    "\(run): \(frames.count) frames from \(frames.first ?? -1), breaks \(NetworkClip.breaks(frames).prefix(8))")
        }
    }

    /// The first frame at 0, times rising across the outage, and on each connection each frame
    /// at its counter's time: within 2 ms (90 kHz ticks, Matroska's milliseconds) and the 500 ppm
    /// the timeline may slew toward this machine's clock over the run; a stream timed by arrival
    /// at its rate on the whole.
    func timesStartAtZeroAndRise() {
        guard let first = recorded.first, recorded.count > 1 else {
            Issue.record("no frames to time")
            return
        }
        #expect(abs(first.time) < 0.001, "first frame at \(first.time) s")
        let steps = zip(recorded, recorded.dropFirst()).map { $1.time - $0.time }
        let falls = steps.indices.filter { steps[$0] <= 0 }
        #expect(falls.isEmpty, "times fall or repeat at \(falls.count) frames: \(falls.prefix(5).map { (recorded[$0].time, recorded[$0 + 1].time) }) … \(falls.suffix(2).map { (recorded[$0].time, recorded[$0 + 1].time) }) of \(recorded.count)")
        for (run, frames) in [("first", before), ("after the reconnect", after)] {
            guard let first = frames.first, let last = frames.last, frames.count > 1 else { continue }
            if camera.timedByArrival {
                let rate = Double(last.counter - first.counter) / (last.time - first.time)
                #expect(abs(rate / Double(camera.fps) - 1) < 0.02, "\(run): \(rate) pictures a second, sent at \(camera.fps)")
            } else {
                let late = frames.map { ($0.time - first.time) - Double($0.counter - first.counter) * frame }
                let allowed = 0.002 + 500e-6 * (last.time - first.time)
                #expect(late.allSatisfy { abs($0) < allowed }, "\(run): frame times off their counters by up to \(late.map(abs).max() ?? 0) s (\(allowed) s allowed)")
            }
        }
    }

    /// After the buffer has filled, and again after the reconnect, the ring spans what `--buffer`
    /// asked (up to one keyframe group more, since it keeps whole groups; after the reconnect, the
    /// camera's gap more, which the first group after it spans) and its bytes are those of the
    /// recording's packets in that span.
    func ringHoldsWhatWasAsked() throws {
        #expect(take.ring?.status == 0, "status --wait-until \(Int(CorpusTake.ringEnd))s: \(take.ring?.error ?? "")")
        try ring(take.ring, "after \(Int(CorpusTake.ringEnd)) s", gap: 0)
        let gap = (after.first?.time ?? .nan) - (before.last?.time ?? .nan) - frame
        try ring(take.back, "after the reconnect (a \(String(format: "%.2f", gap)) s gap)", gap: gap.isFinite ? gap : 0)
    }

    private func ring(_ result: RecBinary.Result?, _ when: String, gap: Double) throws {
        let extra = Self.object(result)["extra"] as? [String: Any]
        guard let start = Self.number(extra?["ring_start"]), let end = Self.number(extra?["ring_end"]),
              let bytes = Self.number(Self.object(result)["ring_bytes"]) else {
            Issue.record("\(when): no ring in \(result?.output ?? "")")
            return
        }
        let span = end - start
        let most = CorpusTake.buffer + camera.keyframeSeconds + gap + frame
        #expect(span >= CorpusTake.buffer - frame && span <= most,
                "\(when): ring \(start)–\(end) s (\(span) s) for --buffer \(CorpusTake.buffer)s, keyframes every \(camera.keyframeSeconds) s")
        let packets = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "packet=stream_index,pts_time,size", "-of", "csv=p=0",
                                               take.recording])
        var held: [Int: Double] = [:]
        for line in String(decoding: packets.stdout, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: ",")
            guard fields.count == 3, let stream = Int(fields[0]), let time = Double(fields[1]), let size = Double(fields[2]),
                  time >= start - 0.001, time < end + frame / 2 else { continue }
            held[stream, default: 0] += size
        }
        let total = held.values.reduce(0, +)
        #expect(total > 0 && abs(bytes / total - 1) < 0.15,
                "\(when): ring_bytes \(Int(bytes)), the recording's packets in \(start)–\(end) s: \(Int(total)) (by stream \(held.sorted { $0.key < $1.key }.map { Int($0.value) }))")
    }

    /// `save --last 8s` comes from the ring, covers 8 s, and its frames are the recording's in
    /// the saved range, in ffmpeg, whole in mpv and in Chromium (`clipPlaysInChromium`); it decodes cleanly.
    func saveFromTheRingIsExact() throws {
        let report = Self.object(take.save)
        try #require(take.save?.status == 0, "rec save --last \(Int(CorpusTake.last))s: \(take.save?.error ?? "")")
        #expect(report["source"] as? String == "ring", "saved from \(report["source"] ?? "?")")
        let saved = report["saved"] as? [String: Any]
        guard let from = Self.number(saved?["from"]), let to = Self.number(saved?["to"]) else {
            Issue.record("no saved range in \(report)")
            return
        }
        let wanted = Int((CorpusTake.last * Double(camera.fps)).rounded())
        #expect(abs((to - from) - CorpusTake.last) < frame / 2, "saved \(from)–\(to) s for --last \(Int(CorpusTake.last))s")
        let expected = counters(from: from, to: to)
        let clip = try NetworkClip.counters(take.clip, width: Camera.width, height: Camera.height)
        let figures = "clip \(clip.count) frames \(clip.first ?? -1)…\(clip.last ?? -1), the recording's in \(from)–\(to) s: "
            + "\(expected.count) \(expected.first ?? -1)…\(expected.last ?? -1); report frames \(report["frames"] ?? "?")"
        #expect(expected.count == wanted && clip == expected, "\(figures)")
        let mpv = try NetworkClip.mpvCounters(take.clip, width: Camera.width, height: Camera.height)
        #expect(mpv == clip, "mpv shows \(mpv.count) frames \(mpv.first ?? -1)…\(mpv.last ?? -1), breaks \(NetworkClip.breaks(mpv).prefix(5))")
        try NetworkClip.expectDecodes(take.clip)
        try clipPlaysInChromium(clip)
    }

    /// The snapshot is the newest picture when it was asked for: its counter is one of the
    /// recording's frames between the ring's end before and after it, give or take a frame.
    func snapshotIsTheNewestPicture() throws {
        try #require(take.snapshot?.status == 0, "rec snapshot: \(take.snapshot?.error ?? "")")
        let before = Self.number((Self.object(take.beforeSnapshot)["extra"] as? [String: Any])?["ring_end"]) ?? .nan
        let after = Self.number((Self.object(take.afterSnapshot)["extra"] as? [String: Any])?["ring_end"]) ?? .nan
        let size = try NetworkClip.stream("video", in: take.still)
        let width = size?["width"] as? Int ?? 0, height = size?["height"] as? Int ?? 0
        let still = try NetworkClip.counters(take.still, width: width, height: height)
        let window = counters(from: before - 1.5 * frame, to: after + 1.5 * frame)
        let shown = recorded.first { $0.counter == still.first }.map { "\($0.time) s" } ?? "not in the recording"
        let figures = "snapshot (\(width)x\(height)) shows frame \(still.first ?? -1) (at \(shown)); asked between ring ends "
            + "\(before) and \(after) s: frames \(window.first ?? -1)…\(window.last ?? -1). \(take.snapshot?.output ?? "")"
        #expect(still.count == 1 && window.contains(still[0]), "\(figures)")
    }

    /// Each sound stream the camera sends is in the recording (as it came) and in the clip, and
    /// each click lands on its flash within a frame (a 30 fps frame, as the sound tests allow),
    /// on each connection.
    func everySoundIsThereInSync() throws {
        let pictures = [before, after].compactMap { run in run.first.map { $0.time...(run.last!.time + frame) } }
        for (file, name) in [(take.recording, "recording"), (take.clip, "clip")] {
            let sound = try NetworkClip.streams(file).filter { $0["codec_type"] as? String == "audio" }
            let codecs = sound.map { $0["codec_name"] as? String ?? "?" }
            if file == take.recording {
                #expect(codecs == camera.sound, "the recording's sound: \(codecs), the camera's: \(camera.sound)")
            } else {
                #expect(codecs.count == camera.sound.count, "the clip's sound: \(codecs), the camera's: \(camera.sound)")
            }
            for stream in sound.indices {
                let audio = try SoundProbe.decodedAudio(in: file, stream: stream)
                let zero = try SoundProbe.firstVideoTime(in: file) ?? 0
                let spans = Self.judged(pictures: file == take.recording ? pictures : [0...Double.infinity],
                                        sound: Self.runs(of: audio).map { ($0.lowerBound - zero)...($0.upperBound - zero) })
                let errors = try SoundProbe.syncErrors(in: file, stream: stream).filter { flash in spans.contains { $0.contains(flash.second) } }
                #expect(errors.count >= 2 && errors.allSatisfy { abs($0.error) < 1.0 / 30 },
                        "\(name) sound \(stream) (\(codecs[stream])): click − flash \(errors.map { ($0.second, ($0.error * 1000).rounded() / 1000) }), judged in \(spans)")
            }
        }
    }

    /// Where flashes are judged: where a connection's pictures and its sound are both there, less
    /// their first half second (AAC's priming hides the first click; pictures before a new
    /// connection's first keyframe are left out while its sound is kept) and their last 50 ms (a
    /// stop or an outage may end the sound a moment before the picture, which is no loss of sync).
    static func judged(pictures: [ClosedRange<Double>], sound: [ClosedRange<Double>]) -> [ClosedRange<Double>] {
        pictures.flatMap { picture in
            sound.compactMap { sound in
                let from = max(picture.lowerBound, sound.lowerBound) + 0.5, to = min(picture.upperBound, sound.upperBound) - 0.05
                return from < to ? from...to : nil
            }
        }
    }

    /// The stretches a decoded sound covers without a break (an outage leaves one): each frame
    /// lasts its samples, and a frame that starts more than 0.2 s after the end of the one before
    /// starts a new stretch.
    static func runs(of audio: SoundProbe.DecodedAudio) -> [ClosedRange<Double>] {
        var runs: [ClosedRange<Double>] = []
        for (i, frame) in audio.frames.enumerated() {
            let next = i + 1 < audio.frames.count ? audio.frames[i + 1].start : audio.samples.count
            let end = frame.time + Double(next - frame.start) / Double(audio.rate)
            if let last = runs.last, frame.time - last.upperBound < 0.2 {
                runs[runs.count - 1] = last.lowerBound...max(last.upperBound, end)
            } else {
                runs.append(frame.time...max(frame.time, end))
            }
        }
        return runs
    }

    /// The recording decodes to its end with no error.
    func recordingDecodes() throws {
        try NetworkClip.expectDecodes(take.recording)
    }
}
