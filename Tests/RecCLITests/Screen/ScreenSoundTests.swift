import Foundation
import Glibc
import Testing
import TestServers
import TestPool

/// Issue 22: the desktop's sound (`--audio desktop`, the default output's monitor) recorded with
/// the screen, beside a microphone as a second track, from a real PulseAudio server whose null
/// sinks stand in for the speakers and the microphone.
@Suite(.blocking, .serialized) struct ScreenSoundTests {
    /// A tone written into the speakers' sink at the moment the root turns white: in the
    /// recording, the tone starts where the white picture does, within 20 ms. The screen is
    /// grabbed at 120 a second, so a picture is at most 8.3 ms after what it shows.
    @Test func desktopSoundIsInSyncWithThePictureAndTheMicrophoneIsASecondTrack() throws {
        let pulse = try PulseServer(sinks: ["speakers", "microphone"])
        let world = try ScreenWorld(extra: ["PULSE_SERVER": pulse.address])
        try world.x.paint("black")
        let mic = try Self.player(pulse, sink: "microphone", frequency: 500, seconds: 30)
        // SIGKILL: a process started from a test's thread inherits its blocked SIGTERM.
        defer { kill(mic.processIdentifier, SIGKILL); mic.waitUntilExit() }
        let speakers = Process()
        speakers.executableURL = URL(fileURLWithPath: Tool.path("pacat") ?? "/usr/bin/pacat")
        speakers.arguments = ["--raw", "--format=s16le", "--rate=48000", "--channels=1", "--latency-msec=5", "-d", "speakers"]
        speakers.environment = pulse.environment(ProcessInfo.processInfo.environment)
        let feed = Pipe()
        speakers.standardInput = feed
        speakers.standardError = FileHandle.nullDevice
        try speakers.run()
        defer { try? feed.fileHandleForWriting.close(); kill(speakers.processIdentifier, SIGKILL); speakers.waitUntilExit() }

        // Lossless (FFV1 and FLAC): no encoder priming to account for in the sound's times.
        let start = try world.rec(["start", "--source", "x11", "--cursor", "off", "--fps", "120", "--preset", "lossless",
                                         "--audio", "desktop", "--audio", "pulse:microphone.monitor", "-o", "sync.mkv"])
        try #require(start.status == 0, "rec start: \(start.error)")
        try world.waitUntil(3)
        // The tone's half second and the white root, one right after the other.
        let tone = (0..<24_000).flatMap { i -> [UInt8] in
            let v = Int16(8000 * sin(2 * Double.pi * 1000 * Double(i) / 48_000))
            return [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)]
        }
        feed.fileHandleForWriting.write(Data(tone))
        try world.x.paint("white")
        let after = try world.ringEnd()
        try world.waitUntil(after + 2)
        #expect(try world.rec(["stop"]).status == 0)

        let path = world.path("sync.mkv")
        let streams = try NetworkClip.streams(path).filter { $0["codec_type"] as? String == "audio" }
        #expect(streams.count == 2, "two sound tracks: \(streams.count)")
        let picture = try ScreenFrames(path)
        let white = try #require(picture.frames.first { $0.shows(ScreenFrames.Colour(name: "white", r: 255, g: 255, b: 255), at: 10, 10) })
        let desk = try Self.samples(path, track: 0)
        let onset = try #require(desk.firstIndex { abs($0) > 0.1 }, "no tone in the desktop's sound")
        let toneTime = Double(onset) / 48_000 + (try Self.start(path, track: 0))
        #expect(abs(toneTime - white.time) < 0.020, "tone at \(toneTime) s, white picture at \(white.time) s")
        let microphone = try Self.samples(path, track: 1)
        let window = microphone.suffix(48_000)
        let crossings = zip(window, window.dropFirst()).count { $0 < 0 && $1 >= 0 }
        #expect(abs(crossings - 500) < 10, "the microphone's track holds \(crossings) Hz")
    }

    static func player(_ pulse: PulseServer, sink: String, frequency: Int, seconds: Int) throws -> Process {
        let file = pulse.folder + "/tone-\(frequency).wav"
        try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=48000:duration=\(seconds)", file])
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Tool.path("paplay") ?? "/usr/bin/paplay")
        p.arguments = ["-d", sink, file]
        p.environment = pulse.environment(ProcessInfo.processInfo.environment)
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    /// Track `track`'s first channel as floats, as ffmpeg decodes it.
    static func samples(_ path: String, track: Int) throws -> [Float] {
        let data = try Tool.run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:a:\(track)", "-af", "pan=mono|c0=c0",
                                           "-ar", "48000", "-f", "f32le", "-"]).stdout
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Where track `track`'s first sample is presented, in seconds.
    static func start(_ path: String, track: Int) throws -> Double {
        let out = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "a:\(track)", "-show_entries", "stream=start_time",
                                           "-of", "csv=p=0", path]).stdout
        return Double(String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
}
