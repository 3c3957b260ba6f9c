import Foundation
import Testing
import TestPool

/// Sound nobody here made: the recordings Debian ships in alsa-utils (PCM WAV, 48 kHz) and
/// sound-theme-freedesktop (Vorbis, 44.1 kHz, encoded by its authors' tools), put beside a
/// picture with the ffmpeg CLI (the sound copied, not re-encoded) and cut with `rec trim`: the
/// clip's sound is the source's, at the clip's time, found by decoding both with ffmpeg.
@Suite(.blocking) struct SoundPackageMediaTests {
    struct Case: Sendable, CustomStringConvertible {
        var sound: String
        var container: String
        var rate: Int
        /// Samples the head may be off: 1 where an edit list hides samples (MOV); in Matroska
        /// three millisecond roundings meet (the source's block, the clip's block, and the
        /// source's start as ffmpeg reports it), so ±1.5 ms.
        var tolerance: Int
        var description: String { "\((sound as NSString).lastPathComponent) in .\(container)" }
    }

    static let cases = [
        Case(sound: "/usr/share/sounds/alsa/Noise.wav", container: "mov", rate: 48_000, tolerance: 1),
        Case(sound: "/usr/share/sounds/alsa/Front_Center.wav", container: "mkv", rate: 48_000, tolerance: 72),
        Case(sound: "/usr/share/sounds/freedesktop/stereo/alarm-clock-elapsed.oga", container: "mkv", rate: 44_100, tolerance: 66),
    ]

    @Test(arguments: cases)
    func trimKeepsThePackagedSoundInPlace(c: Case) throws {
        try #require(FileManager.default.fileExists(atPath: c.sound), "\(c.sound) is missing; run scripts/setup.sh (alsa-utils, sound-theme-freedesktop)")
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = folder + "/source.\(c.container)", clip = folder + "/clip.\(c.container)"
        let made = try Tool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-i", c.sound,
                                           "-map", "0:v", "-map", "1:a", "-shortest", "-c:v", "libx264", "-g", "15",
                                           "-pix_fmt", "yuv420p", "-c:a", "copy", source])
        _ = made
        let r = try RecBinary.run(["trim", source, "--from", "0.3", "--to", "1.2", "-o", clip])
        #expect(r.status == 0, "\(r.error)")
        let src = try SoundProbe.samples(in: source, rate: c.rate)
        let out = try SoundProbe.samples(in: clip, rate: c.rate)
        let (srcStart, clipStart) = (try SoundProbe.audioStart(in: source), try SoundProbe.audioStart(in: clip))
        let expected = Int(((0.3 + clipStart - srcStart) * Double(c.rate)).rounded())
        let head = SampleAlignment.lag(of: out, in: src, around: expected, search: 2400)
        print("packaged sound \(c): head \(head.lag - expected) samples (corr \(head.correlation)), clip sound from \(clipStart * 1000) ms, \(out.count) samples")
        #expect(abs(head.lag - expected) <= c.tolerance)
        #expect(head.correlation > 0.9)
        let end = clipStart + Double(out.count) / Double(c.rate)
        #expect(clipStart >= -0.001 && clipStart < 0.05, "the clip's sound starts at \(clipStart) s")
        #expect(abs(end - 0.9) < 0.05, "the clip's sound ends at \(end) s, its pictures at 0.9 s")
    }
}
