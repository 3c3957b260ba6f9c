import CFFmpeg
import Dispatch
import Foundation
import Media
import RecCore
import Testing

@testable import Capture
import TestPool

@Suite("Test tone: exact times and clicks on the session timeline", .blocking)
struct TestToneAudioSourceTests {
    /// Reads `seconds` of the tone: its chunks and channel 0's samples.
    static func record(skew: Double, seconds: Int) throws -> (chunks: [AudioFrame], samples: [Float], source: TestToneSource) {
        let source = TestToneSource(skew: skew)
        try source.start(epoch: 0)
        var chunks: [AudioFrame] = []
        var samples: [Float] = []
        while samples.count < seconds * 48096 {
            let chunk = try #require(try source.nextChunk())
            chunks.append(chunk)
            samples += AudioSignal.firstChannel(chunk)
        }
        return (chunks, samples, source)
    }

    @Test func chunksAreExactlyTimedAtTheirFirstSampleWithoutSkew() throws {
        let (chunks, _, source) = try Self.record(skew: 0, seconds: 1)
        #expect(source.format == .floatPlanar(rate: 48000, channels: 2))
        #expect(!source.isLive)
        for (n, chunk) in chunks.enumerated() {
            #expect(chunk.sampleCount == 1024)
            #expect(chunk.time == Timestamp(value: Int64(n) * 1024, timeBase: Rational(1, 48000)))
        }
    }

    @Test func aFastClockTimesSampleIAtIOver48096WithSkew0002() throws {
        let (chunks, _, source) = try Self.record(skew: 0.002, seconds: 2)
        #expect(source.deviceMillihertz == 48_096_000)
        for (n, chunk) in chunks.enumerated() {
            #expect(chunk.time == Timestamp(value: Int64(n) * 1024, timeBase: Rational(1, 48096)))
        }
        // 0.2 % more samples per session second: chunk 47 starts at 48128 samples, 1.000665 s.
        #expect(chunks[47].time.rescaled(to: .microseconds) == .microseconds(1_000_665))
    }

    @Test(arguments: [(0.0, [0, 48000, 96000, 144000, 192000]), (0.002, [0, 48096, 96192, 144288, 192384])])
    func clicksStartAtTheDeviceSampleOfEachWholeSecond(skew: Double, expected: [Int]) throws {
        let (_, samples, source) = try Self.record(skew: skew, seconds: 5)
        let clicks = AudioSignal.clicks(Array(samples.prefix(expected.last! + 1000)), rate: 48000)
        #expect(clicks == expected)
        for (k, sample) in clicks.enumerated() {
            #expect(Int64(sample) == source.clickSample(Int64(k)))
            // On the session timeline the click is at k s exactly (its sample's own time).
            #expect(source.chunkTime(startingAt: Int64(sample)).rescaled(to: .microseconds) == .microseconds(Int64(k) * 1_000_000))
            #expect(samples[sample..<sample + 48].allSatisfy { $0 == 0.8 })
            #expect(samples[sample + 48..<sample + 96].allSatisfy { $0 == -0.8 })
            #expect(abs(samples[sample + 96]) <= 0.1)
        }
    }

    @Test func aClickNotOnAWholeSampleGoesToTheNearestOne() {
        let source = TestToneSource(skew: 0.0000123)  // 48000.5904 Hz: second 3 at sample 144001.7712
        #expect(source.deviceMillihertz == 48_000_590)
        #expect(source.clickSample(3) == 144_002)
        #expect(source.clickSample(1) == 48_001)
    }

    @Test func betweenClicksItIsA440HzSineAtAmplitudeOneTenth() throws {
        let (_, samples, _) = try Self.record(skew: 0, seconds: 1)
        let tone = samples[1000..<47000]
        #expect(abs(AudioSignal.rms(tone) - 0.1 / 2.0.squareRoot()) < 0.001)
        #expect(abs(AudioSignal.frequency(tone, rate: 48000) - 440) < 2)
        #expect(tone.allSatisfy { abs($0) <= 0.1 })
    }
}

@Suite("The sound of a file source, on the pictures' timeline", .blocking)
struct FileAudioSourceTests {
    /// A 2 s test picture with 1.5 s of 440 Hz sound starting 0.5 s in.
    static func makeFile(_ ext: String, audioCodec: String, folder: String) throws -> String {
        let path = "\(folder)/input.\(ext)"
        try AudioTools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=2",
                               "-itsoffset", "0.5", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=1.5",
                               "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "veryfast", "-c:a", audioCodec,
                               "-ac", "2", path])
        return path
    }

    /// ffprobe's first best-effort timestamp of each kind of frame, in seconds.
    static func firstFrameTimes(_ path: String) throws -> (video: Double, audio: Double) {
        let out = try AudioTools.run("ffprobe", ["-v", "error", "-show_entries", "frame=media_type,best_effort_timestamp_time",
                                                 "-of", "json", path]).output
        let frames = try #require((try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])?["frames"] as? [[String: Any]])
        func first(_ kind: String) throws -> Double {
            let text = try #require(frames.first { $0["media_type"] as? String == kind }?["best_effort_timestamp_time"] as? String)
            return try #require(Double(text))
        }
        return (try first("video"), try first("audio"))
    }

    /// The samples the ffmpeg CLI decodes from the file's sound (one channel's worth).
    static func cliSampleCount(_ path: String) throws -> Int {
        let pcm = "\(path).pcm"
        try AudioTools.ffmpeg(["-i", path, "-map", "0:a", "-ac", "1", "-f", "s16le", pcm])
        return try #require(try FileManager.default.attributesOfItem(atPath: pcm)[.size] as? Int) / 2
    }

    /// `tick`: the container's time precision in µs (MP4: the sample rate; Matroska: 1 ms).
    @Test(arguments: [("mp4", "aac", 1), ("mkv", "libopus", 1000)])
    func chunksFollowEachOtherFromTheSoundsStartRelativeToTheFirstPicture(ext: String, codec: String, tick: Int64) throws {
        FFmpegLog.quiet()
        let folder = try AudioTools.temporaryFolder("file-audio")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try Self.makeFile(ext, audioCodec: codec, folder: folder)

        let pictures = FileSource(path: path)
        try pictures.start()
        #expect(try pictures.nextFrame()?.captureTime == .zero)
        pictures.stop()

        let sound = FileAudioSource(path: path)
        try sound.start(epoch: 12_345)
        defer { sound.stop() }
        #expect(!sound.isLive)
        #expect(sound.format.sampleRate == 48000 && sound.format.channels == 2)
        var chunks: [AudioFrame] = []
        while let chunk = try sound.nextChunk() { chunks.append(chunk) }

        let probe = try Self.firstFrameTimes(path)
        let expectedStart = ((probe.audio - probe.video) * 1_000_000).rounded()
        let first = try #require(chunks.first)
        #expect(abs(Double(first.time.rescaled(to: .microseconds).value) - expectedStart) <= 1,
                "first chunk at \(first.time), ffprobe says \(probe.audio) − \(probe.video) s")
        #expect(abs(first.time.seconds - 0.5) < 0.03, "the sound starts 0.5 s in, less the codec's priming")
        for (a, b) in zip(chunks, chunks.dropFirst()) {
            let gap = b.time.rescaled(to: .microseconds).value - a.time.rescaled(to: .microseconds).value
            #expect(abs(gap - a.duration.rescaled(to: .microseconds).value) <= tick, "chunk at \(a.time), next at \(b.time)")
        }
        #expect(chunks.reduce(0) { $0 + $1.sampleCount } == (try Self.cliSampleCount(path)))
    }

    @Test func aFileWithoutSoundIsAUsageErrorSayingToRecordWithoutAudio() throws {
        FFmpegLog.quiet()
        let folder = try AudioTools.temporaryFolder("file-audio")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/silent.mp4"
        try AudioTools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=0.5", "-c:v", "libx264", path])
        let error = try #require(throws: RecError.self) { try FileAudioSource(path: path).start(epoch: 0) }
        #expect(error.code == .usage)
        #expect(error.message.hasPrefix("\(path) has no sound; record without --audio"), "\(error.message)")
    }

    @Test func anExactDifferenceOfTwoTimeBasesIsRoundedOnce() {
        // 1 tick of 1/48000 minus 1 tick of 1/15360 = (320 − 1000)/15 360 000 s = −44.27 µs.
        let d = FileAudioSource.difference(Timestamp(value: 1, timeBase: Rational(1, 48000)), minus: Timestamp(value: 1, timeBase: Rational(1, 15360)))
        #expect(d == .microseconds(-44))
        let e = FileAudioSource.difference(Timestamp(value: 24000, timeBase: Rational(1, 48000)), minus: Timestamp(value: 40, timeBase: .milliseconds))
        #expect(e == .microseconds(460_000))
    }
}

@Suite("Choosing the audio source for --audio", .blocking)
struct AudioSourceFactoryTests {
    @Test func eachSpecGivesItsSource() throws {
        #expect(try AudioSourceFactory.make(.none, video: .defaultCamera) == nil)
        let tone = try #require(try AudioSourceFactory.make(.test(skew: 0.002), video: .defaultCamera) as? TestToneSource)
        #expect(tone.skew == 0.002)
        let pulse = try #require(try AudioSourceFactory.make(.pulse(device: nil), video: .defaultCamera) as? DeviceAudioSource)
        #expect(pulse.backend == .pulse && pulse.device == nil && pulse.isLive)
        #expect(pulse.name == "pulse:default")
        let alsa = try #require(try AudioSourceFactory.make(.alsa(device: "hw:1,0"), video: .defaultCamera) as? DeviceAudioSource)
        #expect(alsa.name == "alsa:hw:1,0")
        let file = try #require(try AudioSourceFactory.make(.file, video: .file(path: "talk.mp4")) as? FileAudioSource)
        #expect(file.path == "talk.mp4")
    }

    @Test func fileSoundWithoutAFileSourceIsAUsageError() {
        let error = #expect(throws: RecError.self) {
            try AudioSourceFactory.make(.file, video: .testPattern(width: nil, height: nil, fps: nil))
        }
        #expect(error?.code == .usage)
        #expect(error?.message.contains("--audio file needs --source file:PATH") == true, "\(error?.message ?? "")")
    }

    @Test func realtimeMicrosecondsMoveOntoTheSessionTimelineByTheMeasuredOffset() {
        let mapping = RealtimeMapping(epoch: 5_000_000_000)  // session 0 = monotonic 5 s
        // Realtime runs 1.7e9 s ahead; a sample captured at realtime 1 700 000 006.25 s is monotonic 6.25 s.
        let offset: Int64 = 1_700_000_000_000_000_000
        #expect(mapping.sessionTime(realtimeMicroseconds: 1_700_000_006_250_000, offset: offset) == .microseconds(1_250_000))
        #expect(mapping.sessionTime(realtimeMicroseconds: 1_700_000_004_000_000, offset: offset + 400) == .microseconds(-1_000_000))
        #expect(mapping.sessionTime(realtimeMicroseconds: 1_700_000_005_000_001, offset: offset + 501) == .microseconds(0))
        // The offset measured now is the two clocks' difference.
        var realtime = timespec()
        clock_gettime(CLOCK_REALTIME, &realtime)
        let now = Int64(realtime.tv_sec) * 1_000_000_000 + Int64(realtime.tv_nsec) - Int64(DispatchTime.now().uptimeNanoseconds)
        #expect(abs(RealtimeMapping.realtimeOffset() - now) < 5_000_000)
    }
}

@Suite("Microphones through libavdevice against a real PulseAudio server", .blocking, .serialized)
struct DeviceAudioSourceTests {
    struct Observed {
        var chunks: [AudioFrame] = []
        /// Session time, in seconds, when each chunk was handed over.
        var readAt: [Double] = []
        var samples: [Float] = []
    }

    /// Captures `seconds` of sound (by sample count) from the test server's monitor.
    static func capture(_ source: DeviceAudioSource, seconds: Double) throws -> Observed {
        let epoch = DispatchTime.now().uptimeNanoseconds
        try source.start(epoch: epoch)
        defer { source.stop() }
        var observed = Observed()
        while observed.chunks.count < 2_000 {
            let chunk = try #require(try source.nextChunk())
            observed.readAt.append(Double(DispatchTime.now().uptimeNanoseconds - epoch) / 1e9)
            observed.chunks.append(chunk)
            observed.samples += AudioSignal.firstChannel(chunk)
            if observed.samples.count >= Int(seconds * 48000) { break }
        }
        return observed
    }

    @Test func capturesTheTonePlayedIntoTheSinkWithTimesThatTrackTheWallClock() throws {
        FFmpegLog.quiet()
        let server = try PulseTestServer()
        defer { server.stop() }
        let player = try server.playTone(seconds: 6)
        defer {
            kill(player.processIdentifier, SIGKILL)  // SIGKILL: the test thread's blocked SIGTERM is paplay's too
            player.waitUntilExit()
        }

        let source = DeviceAudioSource(backend: .pulse, device: "rec_test.monitor", server: server.address)
        let observed = try Self.capture(source, seconds: 3)
        #expect(source.format == .s16(rate: 48000, channels: 2))
        #expect(source.description == "pulse:rec_test.monitor (48000 Hz, 2 ch)")
        #expect(source.isLive && source.overruns == 0, "overruns \(source.overruns)")

        // The tone: 1000 Hz at RMS 0.125/√2, in the second after it reached the sink.
        let onset = try #require(observed.samples.firstIndex { abs($0) > 0.05 }, "the tone never arrived")
        let window = observed.samples.dropFirst(onset + 4800).prefix(48000)
        try #require(window.count == 48000, "less than 1 s of tone after it arrived at sample \(onset)")
        #expect(abs(AudioSignal.rms(window) - 0.125 / 2.0.squareRoot()) < 0.005, "RMS \(AudioSignal.rms(window))")
        #expect(abs(AudioSignal.frequency(window, rate: 48000) - 1000) < 5, "\(AudioSignal.frequency(window, rate: 48000)) Hz")

        // Each chunk starts where the one before ended, within less than the clock model takes for
        // a gap or an overlap, and each chunk's end is near the moment it was handed over. Times
        // need not strictly increase: libavdevice's smoothed times jitter by a few milliseconds
        // (−2.4 ms measured under load), more than a short chunk lasts, and the clock model fits
        // a line through them.
        func end(_ chunk: AudioFrame) -> Double { chunk.time.seconds + chunk.duration.seconds }
        let steps = zip(observed.chunks, observed.chunks.dropFirst()).map { $1.time.seconds - end($0) }
        let worst = try #require(steps.indices.max { abs(steps[$0]) < abs(steps[$1]) })
        #expect(abs(steps[worst]) < AudioClock.Policy.standard.gapThreshold,
                "chunk \(worst + 1) of \(observed.chunks.count) starts \(steps[worst]) s from the end of the one before")
        let lags = zip(observed.chunks, observed.readAt).map { chunk, read in read - end(chunk) }
        // libavdevice times a stream's first packets with libpulse's latency from before the server
        // has reported any (pulse_audio_dec.c asks for an update but does not wait): on a fresh
        // null sink they start up to ~0.7 s early and its DLL filter takes about a second to
        // converge. The first second of sound is held to the sanity bound only.
        #expect(lags[0] > -0.05 && lags[0] < 1, "first chunk handed over \(lags[0]) s after its end")
        var settled = 0
        var counted = 0
        while settled < observed.chunks.count && counted < 48000 { counted += observed.chunks[settled].sampleCount; settled += 1 }
        let chunks = observed.chunks[settled...], settledLags = lags[settled...]
        try #require(chunks.count > 100)
        // Within 50 ms: the least lag of each half (a test thread late to read proves nothing).
        for half in [settledLags.prefix(settledLags.count / 2), settledLags.suffix(settledLags.count / 2)] {
            let least = try #require(half.min())
            #expect(least > -0.05 && least < 0.05, "least lag \(least) s; lags \(Array(settledLags.prefix(20)))")
        }
        // As many samples as the times span, within 50 ms.
        let samples = chunks.reduce(0) { $0 + $1.sampleCount }
        let span = end(chunks.last!) - chunks.first!.time.seconds
        #expect(span > 1.9, "\(chunks.count) chunks span \(span) s")
        #expect(abs(Double(samples) / 48000 - span) < 0.05, "\(samples) samples over \(span) s")
        print("pulse monitor: tone at sample \(onset), first lag \(lags[0]) s, worst step \(steps[worst]) s at chunk \(worst + 1), "
              + "settled lags \(settledLags.min()!)...\(settledLags.max()!) s, \(samples) samples over \(span) s")
    }

    @Test func anUnknownInputIsAUsageErrorNamingItAndPointingAtRecDevices() throws {
        FFmpegLog.quiet()
        let server = try PulseTestServer()
        defer { server.stop() }
        let source = DeviceAudioSource(backend: .pulse, device: "no_such_mic", server: server.address)
        let error = try #require(throws: RecError.self) { try source.start(epoch: 0) }
        #expect(error.code == .usage)
        #expect(error.message.contains("'no_such_mic'") && error.message.contains("rec devices"), "\(error.message)")
        #expect(error.message.contains("rec_test.monitor"), "names the inputs there are: \(error.message)")
    }

    @Test func theListingNamesTheServersSourcesAndItsDefault() throws {
        let server = try PulseTestServer()
        defer { server.stop() }
        let microphones = try AudioDevices.pulseMicrophones(server: server.address)
        let monitor = try #require(microphones.first { $0.name == "rec_test.monitor" }, "\(microphones)")
        #expect(monitor.isDefault && monitor.backend == .pulse && monitor.audioSpec == "pulse:rec_test.monitor")
        #expect(!monitor.description.isEmpty)
        let text = MicrophoneListFormatter.text(AudioDevices.list(pulseServer: server.address))
        #expect(text.hasPrefix("microphones (--audio):\n  pulse:rec_test.monitor  \(monitor.description)  (default)\n"), "\(text)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(MicrophoneListFormatter.json(microphones).utf8)) as? [[String: Any]])
        #expect(json.first?["audio"] as? String == "pulse:rec_test.monitor")
        #expect(json.first?["default"] as? Bool == true)
    }

    @Test func noSoundServerIsOneLineInTheListingAndARuntimeErrorSayingToCheckPactlInfo() throws {
        FFmpegLog.quiet()
        let nowhere = "unix:" + FileManager.default.temporaryDirectory.appendingPathComponent("rec-no-server-\(UUID())/native").path
        let listing = AudioDevices.list(pulseServer: nowhere)
        #expect(listing.notes.first == AudioDevices.noSoundServerNote)
        #expect(!listing.microphones.contains { $0.backend == .pulse })
        #expect(MicrophoneListFormatter.text(listing).contains("\n  pulse: no sound server is running (PulseAudio or PipeWire); check with `pactl info`\n"))
        let error = try #require(throws: RecError.self) { try DeviceAudioSource(backend: .pulse, device: nil, server: nowhere).start(epoch: 0) }
        #expect(error.code == .runtime)
        #expect(error.message.hasPrefix("PulseAudio/PipeWire is not running") && error.message.contains("pactl info"), "\(error.message)")
    }

    @Test func aMissingALSADeviceIsAUsageErrorNamingIt() throws {
        FFmpegLog.quiet()
        let error = try #require(throws: RecError.self) { try DeviceAudioSource(backend: .alsa, device: "hw:7,0").start(epoch: 0) }
        #expect(error.code == .usage)
        #expect(error.message.contains("'hw:7,0'") && error.message.contains("rec devices"), "\(error.message)")
    }
}
