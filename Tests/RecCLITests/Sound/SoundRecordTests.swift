import Foundation
import Media
import Testing
import TestFileWatch
import TestPool

/// Sound recorded with the pictures stays in sync: the stand-in tone clicks at every whole
/// second of the session timeline and the stand-in picture lights its second mark at the same
/// instants; its clock is made to run fast (`--audio test:skew=…`), and the recording must hide
/// it. Measured from the files alone by `SoundProbe` (the ffmpeg CLI).
@Suite(.blocking) struct SoundRecordTests {
    /// The issue's bound: every click within 10 ms of its flash.
    static let bound = 0.010

    /// The worst |click − flash| in the first, middle and last minute of a recording.
    static func worst(_ errors: [(second: Double, error: Double)], length: Double) -> (start: Double, middle: Double, end: Double) {
        func worst(_ range: ClosedRange<Double>) -> Double {
            errors.filter { range.contains($0.second) }.map { abs($0.error) }.max() ?? .infinity
        }
        let third = length / 3
        return (worst(0...min(60, third)), worst(third...(2 * third)), worst(max(2 * third, length - 60)...length))
    }

    static func record(_ name: String, audio: String, seconds: Int, preset: String? = nil, in folder: String) throws -> String {
        let path = folder + "/" + name
        var arguments = ["record", "--source", "test:320x240@30", "--audio", audio, "--pace", "off",
                         "--duration", "\(seconds)s", "-o", path]
        if let preset { arguments += ["--preset", preset] }
        let r = try RecBinary.run(arguments)
        #expect(r.status == 0, "rec record failed: \(r.error)")
        return path
    }

    /// MP4 is the session test's file (SoundSessionTests), which records the same ten minutes.
    @Test(arguments: [("mkv", nil), ("webm", "small")] as [(String, String?)])
    func tenMinutesWithAFastSoundClockStayInSync(container: String, preset: String?) throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try Self.record("skew.\(container)", audio: "test:skew=0.002", seconds: 600, preset: preset, in: folder)
        let errors = try SoundProbe.syncErrors(in: path)
        #expect(errors.count >= 595, "found \(errors.count) click/flash pairs in 600 s")
        let w = Self.worst(errors, length: 600)
        print("sound sync \(container), 10 min at +0.2 %: worst start \(w.start * 1000) ms, middle \(w.middle * 1000) ms, end \(w.end * 1000) ms")
        #expect(w.start <= Self.bound && w.middle <= Self.bound && w.end <= Self.bound)
        // The sound lasts as long as the pictures, within one audio frame.
        let (audio, video) = (try SoundProbe.audioDuration(in: path), try SoundProbe.videoDuration(in: path))
        #expect(abs(audio - video) <= 1024.0 / 48_000 + 0.001, "audio \(audio) s, video \(video) s")
    }

    /// The same recording without the drift correction: the clicks run away from the flashes,
    /// so the test above can fail.
    @Test func withoutCorrectionTheSameRecordingDrifts() throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try Self.record("raw.mkv", audio: "test:skew=0.002,uncorrected", seconds: 600, in: folder)
        let errors = try SoundProbe.syncErrors(in: path)
        let w = Self.worst(errors, length: 600)
        print("sound sync uncorrected, 10 min at +0.2 %: worst middle \(w.middle * 1000) ms, end \(w.end * 1000) ms")
        // 0.2 % of 600 s is 1.2 s; the probe pairs each flash with the nearest click, so a drift
        // past half a second shows modulo one second (1.2 s reads as 0.2 s). Either way it is
        // far outside the bound the corrected recordings meet.
        #expect(w.middle > 10 * Self.bound && w.end > 10 * Self.bound)
        // Every click later than the one before by more than a second: the drift itself.
        let clicks = try SoundProbe.clicks(in: path)
        let spacing = zip(clicks, clicks.dropFirst()).map { $1 - $0 }.filter { $0 > 0.9 && $0 < 1.1 }
        let mean = spacing.reduce(0, +) / Double(max(1, spacing.count))
        #expect(abs(mean - 1.002) < 0.0002, "mean click spacing \(mean) s")
    }

    /// A plain tone with no skew in every container rec records into, with its default sound.
    @Test(arguments: [("mp4", nil), ("mov", nil), ("mkv", nil), ("webm", "small"), ("mkv", "lossless")] as [(String, String?)])
    func everyContainerKeepsSync(container: String, preset: String?) throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try Self.record("tone.\(container)", audio: "test", seconds: 8, preset: preset, in: folder)
        let errors = try SoundProbe.syncErrors(in: path)
        #expect(errors.count >= 7)
        let worst = errors.map { abs($0.error) }.max() ?? .infinity
        #expect(worst <= 0.002, "\(container) \(preset ?? ""): worst sync error \(worst * 1000) ms")
        let (audio, video) = (try SoundProbe.audioDuration(in: path), try SoundProbe.videoDuration(in: path))
        #expect(abs(audio - video) <= 1024.0 / 48_000 + 0.001, "audio \(audio) s, video \(video) s")
    }

    @Test func badAudioChoicesAreUsageErrors() throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cases: [([String], String)] = [
            (["--audio", "file"], "--source file:"),
            (["--audio", "bogus"], "unknown audio source"),
            (["--audio", "test:skew=0.9"], "test skew"),
        ]
        for (extra, needle) in cases {
            let r = try RecBinary.run(["record", "--source", "test", "--frames", "3", "-o", folder + "/x.mp4"] + extra)
            #expect(r.status == 64, "\(extra): status \(r.status) \(r.error)")
            #expect(r.error.contains(needle), "\(extra): \(r.error)")
            #expect(!r.error.contains("Fatal error"))
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/x.mp4"))
    }

    /// kill -9 in the middle of a recording with sound: both streams are in the file, in sync,
    /// and neither loses more than the fragment being filled.
    @Test(arguments: ["mp4", "mkv"])
    func aKilledRecordingKeepsBothStreamsInSync(container: String) throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/killed.\(container)"
        let writes = FileWatch([folder])
        let process = try RecBinary.launch(["record", "--source", "test:320x240@30", "--audio", "test",
                                            "--duration", "60s", "-o", path])
        // Record until three and a half seconds of pictures are on disk (read again as the file is written).
        #expect(writes.wait { ((try? FrameReader.read(path: path))?.frames.count ?? 0) >= 105 }, "the recording never grew")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let (audio, video) = (try SoundProbe.audioDuration(in: path), try SoundProbe.videoDuration(in: path))
        #expect(video > 2.5, "only \(video) s of pictures survived")
        #expect(audio > 2.5 && abs(audio - video) < 0.5, "audio \(audio) s, video \(video) s")
        let errors = try SoundProbe.syncErrors(in: path)
        #expect(errors.count >= 2)
        #expect((errors.map { abs($0.error) }.max() ?? .infinity) <= Self.bound, "\(errors)")
    }

    /// With --segment every file has the sound that plays with its pictures.
    @Test func everySegmentHasItsSound() throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let r = try RecBinary.run(["record", "--source", "test:320x240@30", "--audio", "test", "--pace", "off",
                                   "--duration", "7s", "--segment", "2s", "-o", folder + "/seg.mkv"])
        #expect(r.status == 0, "\(r.error)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".mkv") }.sorted()
        #expect(files.count >= 3, "\(files)")
        var total = 0.0
        for file in files {
            let path = folder + "/" + file
            let (audio, video) = (try SoundProbe.audioDuration(in: path), try SoundProbe.videoDuration(in: path))
            total += video
            // Matroska's millisecond stamps at both ends, and one AAC frame.
            #expect(abs(audio - video) <= 1024.0 / 48_000 + 0.005, "\(file): audio \(audio) s, video \(video) s")
            // A sound packet that spans a boundary goes to the earlier segment, so a later
            // segment's sound starts up to one packet after its first picture (documented):
            // the click at that picture is in the segment before.
            let pairs = try SoundProbe.syncErrors(in: path).filter { $0.second >= 0.05 }
            #expect(!pairs.isEmpty || video < 1.5, "\(file): no click to measure")
            let worst = pairs.map { abs($0.error) }.max() ?? .infinity
            #expect(pairs.isEmpty || worst <= 0.002, "\(file): worst \(worst * 1000) ms")
        }
        #expect(abs(total - 7) < 0.05)
    }
}
