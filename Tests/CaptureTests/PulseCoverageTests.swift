import Capture
import Foundation
import Glibc
import Media
import RecCore
import Session
import Testing
import TestPool

/// A recording from a real PulseAudio server has sound from its first picture to its last
/// (issue 20: every recording lost its first 1.4 to 1.75 s of sound, and the report said
/// "0 gaps"). A tone is played into the test server's null sink with paplay's default latency,
/// as a desktop player does: the null sink then renders two seconds at a time, so the monitor's
/// first chunk to a new recording stream comes 1 to 1.6 s after it connects (measured with parec
/// and the ffmpeg CLI). The file is decoded back by the ffmpeg CLI.
@Suite("Sound from a real PulseAudio covers the whole recording", .blocking, .serialized)
struct PulseCoverageTests {
    /// Left unchecked at each end of the pictures: one AAC frame (21.3 ms) of encoder priming or
    /// padding, and one 10 ms window.
    static let tolerance = 0.032
    /// The tone's RMS is 0.125 / √2 = 0.088; a window under half of it has no tone.
    static let quiet = 0.044

    @Test(arguments: [("mp4", ContainerFormat.mp4), ("mkv", ContainerFormat.mkv)])
    func theSoundCoversTheRecordingFromItsFirstPictureToItsLast(ext: String, container: ContainerFormat) throws {
        FFmpegLog.quiet()
        let server = try PulseTestServer()
        defer { server.stop() }
        let player = try server.playTone(seconds: 20)
        defer {
            kill(player.processIdentifier, SIGKILL)
            player.waitUntilExit()
        }
        // The tone is playing (heard on the monitor) before the recording starts, as in the issue.
        try Self.waitUntilHeard(on: server)
        let path = "\(server.folder)/covered.\(ext)"
        var configuration = RecorderConfiguration(
            encoder: EncoderSettings(encoder: "libx264", width: 0, height: 0, pixelFormat: .yuv420p, speed: "veryfast"),
            output: .init(path: path, container: container), pace: .realtime, durationLimit: Timestamp(seconds: 3))
        configuration.audio = AudioEncoding.standard(for: container)
        let recorder = Recorder(source: TestPatternSource(width: 320, height: 240, fps: 30),
                                sounds: [DeviceAudioSource(backend: .pulse, device: "rec_test.monitor", server: server.address)],
                                configuration: configuration)
        try recorder.waitUntilStarted()
        recorder.waitUntilFinished()
        let stats = recorder.currentStats
        #expect(stats.state == .finished, "\(stats.lastError ?? "")")
        let sound = try #require(stats.sound)

        // 90 pictures of 1/30 s: the pictures last 3 s.
        #expect(stats.framesEncoded == 90)
        // Matroska moves every stream later by the AAC encoder's priming (1024 samples), so
        // that the sound's first pts is not negative.
        let pictures = try Self.start("v", of: path)
        let end = pictures + 3
        let heardFrom = try Self.start("a", of: path)
        let samples = try PulseRecordingTests.decode(path)
        #expect(pictures >= 0 && pictures < 1024.0 / 48_000 + 0.001, "the pictures start at \(pictures) s")
        // Every 10 ms of the pictures, but the tolerance at each end, has the tone under it.
        var silent: [Double] = []
        var time = pictures + Self.tolerance
        while time + 0.01 <= end - Self.tolerance {
            let first = Int(((time - heardFrom) * 48_000).rounded())
            if first < 0 || first + 480 > samples.count || AudioSignal.rms(samples[first..<(first + 480)]) < Self.quiet {
                silent.append(time)
            }
            time += 0.01
        }
        let heard = Double(samples.count) / 48_000
        print("pulse coverage \(ext): sound from \(heardFrom) s for \(heard) s, pictures \(pictures)–\(end) s, "
              + "\(silent.count) windows without the tone, \(sound.gaps) gaps reported")
        let missing = "no tone in \(silent.count) windows of 10 ms, from \(silent.first ?? 0) s to \(silent.last ?? 0) s "
            + "(the sound starts at \(heardFrom) s and lasts \(heard) s)"
        #expect(silent.count == 0, "\(missing)")
        #expect(sound.gaps == 0 && silent.isEmpty || sound.gaps > 0 && !silent.isEmpty,
                "the report says \(sound.gaps) gaps while \(silent.count) windows have no tone")
    }

    /// Reads the sink's monitor with parec until the tone is in it (a blocking read of its
    /// output, no polling), then ends parec.
    static func waitUntilHeard(on server: PulseTestServer) throws {
        let parec = Process()
        parec.executableURL = URL(fileURLWithPath: try #require(AudioTools.find("parec")))
        parec.arguments = ["-s", server.address, "-d", "rec_test.monitor", "--raw", "--format=s16le", "--rate=48000", "--channels=1"]
        let out = Pipe()
        parec.standardOutput = out
        parec.standardError = FileHandle.nullDevice
        try parec.run()
        defer {
            kill(parec.processIdentifier, SIGKILL)
            parec.waitUntilExit()
        }
        while true {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { throw AudioTestFailure(description: "parec ended before the tone was heard on rec_test.monitor") }
            let loud = data.withUnsafeBytes { $0.bindMemory(to: Int16.self).contains { abs(Int($0)) > 1_000 } }
            if loud { return }
        }
    }

    /// The first stream of `kind`'s start time in seconds, as ffprobe reads it.
    static func start(_ kind: String, of path: String) throws -> Double {
        let probe = try AudioTools.run("ffprobe", ["-v", "error", "-select_streams", "\(kind):0", "-show_entries",
                                                   "stream=start_time", "-of", "csv=p=0", path])
        guard let start = Double(probe.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw AudioTestFailure(description: "ffprobe found no \(kind) stream in \(path): \(probe.output)")
        }
        return start
    }
}
