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

    init(_ camera: Camera, _ take: CorpusTake) throws {
        self.camera = camera
        self.take = take
        frame = 1 / Double(camera.fps)
        let counters = try NetworkClip.counters(take.recording, width: Camera.width, height: Camera.height)
        let times = try NetworkClip.frames(take.recording).map(\.time)
        // Paired when both tools saw the same frames; `picturesAreCountedOnce` reports when not.
        recorded = times.count == counters.count ? Array(zip(times, counters)) : []
        #expect(times.count == counters.count, "ffprobe times \(times.count) frames, ffmpeg decodes \(counters.count)")
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
    /// recording, which holds every picture the camera sent from the first, once, in order.
    func picturesAreCountedOnce() throws {
        let counters = recorded.map(\.counter)
        let summary = Self.number(Self.object(take.stop)["frames"]).map(Int.init)
        #expect(summary == counters.count, "rec counted \(summary ?? -1) frames, ffmpeg decodes \(counters.count)")
        #expect(NetworkClip.consecutive(counters),
                "\(counters.count) frames from \(counters.first ?? -1), breaks \(NetworkClip.breaks(counters).prefix(8))")
    }

    /// The first frame at 0, times rising, and each at its counter's time (3 ms: 90 kHz ticks,
    /// Matroska's milliseconds, the timeline's slew); a stream timed by arrival at its rate on the whole.
    func timesStartAtZeroAndRise() {
        guard let first = recorded.first, let last = recorded.last, recorded.count > 1 else {
            Issue.record("no frames to time")
            return
        }
        #expect(abs(first.time) < 0.001, "first frame at \(first.time) s")
        let steps = zip(recorded, recorded.dropFirst()).map { $1.time - $0.time }
        #expect(steps.allSatisfy { $0 > 0 }, "times fall or repeat: \(steps.enumerated().filter { $1 <= 0 }.prefix(5).map { ($0, $1) })")
        if camera.timedByArrival {
            let rate = Double(last.counter - first.counter) / (last.time - first.time)
            #expect(abs(rate / Double(camera.fps) - 1) < 0.02, "\(rate) pictures a second, sent at \(camera.fps)")
        } else {
            let late = recorded.map { ($0.time - first.time) - Double($0.counter - first.counter) * frame }
            #expect(late.allSatisfy { abs($0) < 0.003 }, "frame times off their counters by up to \(late.map(abs).max() ?? 0) s")
        }
    }

    /// After the buffer has filled, the ring spans what `--buffer` asked (up to one keyframe group
    /// more, since it keeps whole groups) and its bytes are those of the recording's packets in that span.
    func ringHoldsWhatWasAsked() throws {
        let status = Self.object(take.ring)
        #expect(take.ring?.status == 0, "status --wait-until \(Int(CorpusTake.ringEnd))s: \(take.ring?.error ?? "")")
        let extra = status["extra"] as? [String: Any]
        guard let start = Self.number(extra?["ring_start"]), let end = Self.number(extra?["ring_end"]),
              let bytes = Self.number(status["ring_bytes"]) else {
            Issue.record("no ring in \(take.ring?.output ?? "")")
            return
        }
        let span = end - start
        let most = CorpusTake.buffer + camera.keyframeSeconds + frame
        #expect(span >= CorpusTake.buffer - frame && span <= most,
                "ring \(start)–\(end) s (\(span) s) for --buffer \(CorpusTake.buffer)s, keyframes every \(camera.keyframeSeconds) s")
        let packets = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "packet=pts_time,size", "-of", "csv=p=0", take.recording])
        let held = String(decoding: packets.stdout, as: UTF8.self).split(separator: "\n").reduce(0) { sum, line in
            let fields = line.split(separator: ",")
            guard fields.count == 2, let time = Double(fields[0]), let size = Double(fields[1]),
                  time >= start - 0.001, time < end + frame / 2 else { return sum }
            return sum + size
        }
        #expect(held > 0 && abs(bytes / held - 1) < 0.15, "ring_bytes \(Int(bytes)), the recording's packets in \(start)–\(end) s: \(Int(held))")
    }

    /// `save --last 3s` comes from the ring, covers 3 s, and its frames are the recording's in
    /// the saved range, in ffmpeg and whole in mpv; it decodes cleanly.
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
    /// each click lands on its flash within a frame (a 30 fps frame, as the sound tests allow).
    func everySoundIsThereInSync() throws {
        for (file, name) in [(take.recording, "recording"), (take.clip, "clip")] {
            let sound = try NetworkClip.streams(file).filter { $0["codec_type"] as? String == "audio" }
            let codecs = sound.map { $0["codec_name"] as? String ?? "?" }
            if file == take.recording {
                #expect(codecs == camera.sound, "the recording's sound: \(codecs), the camera's: \(camera.sound)")
            } else {
                #expect(codecs.count == camera.sound.count, "the clip's sound: \(codecs), the camera's: \(camera.sound)")
            }
            for stream in sound.indices {
                // From the second flash (AAC's priming hides the first click) to the sound's end:
                // a stop may end the sound a moment before the picture, which is no loss of sync.
                let audio = try SoundProbe.decodedAudio(in: file, stream: stream)
                let end = audio.time(ofSample: max(0, audio.samples.count - 1)) - (try SoundProbe.firstVideoTime(in: file) ?? 0)
                let errors = try SoundProbe.syncErrors(in: file, stream: stream).filter { $0.second > 0.5 && $0.second < end - 0.05 }
                    .map(\.error)
                #expect(errors.count >= 2 && errors.allSatisfy { abs($0) < 1.0 / 30 },
                        "\(name) sound \(stream) (\(codecs[stream])): click − flash \(errors.map { ($0 * 1000).rounded() / 1000 }), sound to \(end) s")
            }
        }
    }

    /// The recording decodes to its end with no error.
    func recordingDecodes() throws {
        try NetworkClip.expectDecodes(take.recording)
    }
}
