import Capture
import Foundation
import Glibc
import Media
import RecCore
import Session
import Testing
import TestFileWatch
import TestPool

/// A recording with sound from a real PulseAudio server: a tone played into the test server's
/// null sink is captured from its monitor through libavdevice, encoded beside the stand-in
/// camera's pictures and written to a file, which the ffmpeg CLI then decodes and checks.
@Suite("Recording sound from a real PulseAudio server", .blocking, .serialized)
struct PulseRecordingTests {
    @Test(arguments: [("mp4", ContainerFormat.mp4), ("mkv", ContainerFormat.mkv)])
    func aRecordingHoldsTheTonePlayedIntoTheServer(ext: String, container: ContainerFormat) throws {
        FFmpegLog.quiet()
        let server = try PulseTestServer()
        defer { server.stop() }
        let player = try server.playTone(seconds: 12)
        defer {
            kill(player.processIdentifier, SIGKILL)
            player.waitUntilExit()
        }
        let path = "\(server.folder)/with-sound.\(ext)"
        var configuration = RecorderConfiguration(
            encoder: EncoderSettings(encoder: "libx264", width: 0, height: 0, pixelFormat: .yuv420p, speed: "veryfast"),
            output: .init(path: path, container: container), pace: .realtime, frameLimit: 180)
        configuration.audio = AudioEncoding.standard(for: container)
        let recorder = Recorder(source: TestPatternSource(width: 320, height: 240, fps: 30),
                                sounds: [DeviceAudioSource(backend: .pulse, device: "rec_test.monitor", server: server.address)],
                                configuration: configuration)
        try recorder.waitUntilStarted()
        recorder.waitUntilFinished()
        let stats = recorder.currentStats
        #expect(stats.state == .finished, "\(stats.lastError ?? "")")
        let sound = try #require(stats.sound)
        #expect(sound.device.hasPrefix("pulse:rec_test.monitor"))
        #expect(sound.packets > 100)
        #expect(sound.peakDBFS.map { abs($0 - (-18.1)) < 1.5 } == true, "peak \(sound.peakDBFS ?? -999) dBFS")

        // Decoded by the ffmpeg CLI: AAC in the file, the tone's frequency and level, and sound
        // for most of the six seconds (PulseAudio's first chunk can take a second or two to come).
        let probe = try AudioTools.run("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries",
                                                   "stream=codec_name,sample_rate,channels", "-of", "csv=p=0", path])
        #expect(probe.output.trimmingCharacters(in: .whitespacesAndNewlines) == "aac,48000,2")
        let decoded = try Self.decode(path)
        #expect(decoded.count > 48_000 * 3, "only \(decoded.count) samples")
        let window = decoded.suffix(48_000 * 2).dropLast(4800)
        #expect(abs(AudioSignal.rms(window) - 0.125 / 2.0.squareRoot()) < 0.01, "RMS \(AudioSignal.rms(window))")
        #expect(abs(AudioSignal.frequency(window, rate: 48_000) - 1000) < 5)
    }

    /// The first channel of the file's sound as floats, as the ffmpeg CLI decodes it.
    static func decode(_ path: String) throws -> [Float] {
        let data = try AudioTools.runForBytes("ffmpeg", ["-v", "error", "-i", path, "-map", "0:a", "-af", "pan=mono|c0=c0", "-f", "f32le", "-"]).output
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The sound server vanishing (SIGKILL) or stopping answering (SIGSTOP) in the middle of a
    /// recording: the pictures go on to the end and are written as they come, the recording
    /// finishes in bounded time, and the failure is said (review of the sound integration: a
    /// stopped server hung the stop; a failed one held the file for 10 s and was not reported).
    @Test(arguments: [SIGKILL, SIGSTOP])
    func aSoundServerThatFailsLeavesThePicturesGoing(signal: Int32) throws {
        FFmpegLog.quiet()
        let server = try PulseTestServer()
        defer { server.stop() }
        let path = "\(server.folder)/fails.mkv"
        var configuration = RecorderConfiguration(
            encoder: EncoderSettings(encoder: "libx264", width: 0, height: 0, pixelFormat: .yuv420p, speed: "veryfast"),
            output: .init(path: path, container: .mkv), pace: .realtime, frameLimit: 240)
        configuration.audio = AudioEncoding.standard(for: .mkv)
        let moved = Latch()
        let recorder = Recorder(source: TestPatternSource(width: 320, height: 240, fps: 30),
                                sounds: [DeviceAudioSource(backend: .pulse, device: "rec_test.monitor", server: server.address)],
                                configuration: configuration) { _ in moved.pulse() }
        try recorder.waitUntilStarted()
        // Four seconds of pictures with sound (woken by each packet), then the server fails.
        #expect(moved.wait(until: .after(30)) { recorder.currentStats.framesEncoded >= 120 } == .met)
        let writes = FileWatch([path])
        server.signalServer(signal)
        // The pictures are written as they come, not held for a sound that will not come: the
        // file grows while the recording still goes on.
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        var grewWhileRecording = false
        _ = writes.wait(timeout: 30) {
            let now = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            guard now > size else { return false }
            grewWhileRecording = recorder.currentStats.state == .recording
            return true
        }
        #expect(grewWhileRecording, "the file stayed at \(size) bytes while the recording went on after the sound failed")
        // Eight seconds of pictures, then at most the bounded waits of the stop.
        #expect(recorder.waitUntilFinished(seconds: 20), "the recording did not finish")
        let stats = recorder.currentStats
        #expect(stats.state == .finished, "\(stats.lastError ?? "")")
        #expect(stats.framesEncoded == 240)
        if signal == SIGKILL {
            #expect(stats.sound?.failure?.contains("failed at") == true, "\(stats.sound?.failure ?? "no failure")")
            #expect(stats.lastError?.contains("without sound") == true, "\(stats.lastError ?? "")")
        }
        let probe = try AudioTools.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
        #expect(abs((Double(probe.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) - 8) < 0.2, "\(probe.output)")
    }
}
