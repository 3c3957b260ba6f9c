import CFFmpeg
import Foundation
import Glibc
import Media
import RecCore
import TestFileWatch

/// A failure that says what to do about it; Swift Testing reports its description.
struct AudioTestFailure: Error, CustomStringConvertible {
    var description: String
}

/// Command-line tools the audio tests run: the ffmpeg CLI to make inputs, PulseAudio's own tools.
enum AudioTools {
    /// The tool's path on PATH, or nil.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }

    /// Runs a tool to its end; its status and standard output.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
        let (status, data) = try runForBytes(tool, arguments, environment: environment)
        return (status, String(decoding: data, as: UTF8.self))
    }

    /// Runs a tool to its end; its status and standard output as bytes.
    static func runForBytes(_ tool: String, _ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, output: Data) {
        guard let executable = find(tool) else { throw AudioTestFailure(description: "\(tool) is not installed; run scripts/setup.sh") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }

    /// Runs the ffmpeg CLI, which must succeed.
    static func ffmpeg(_ arguments: [String]) throws {
        let result = try run("ffmpeg", ["-v", "error", "-y"] + arguments)
        guard result.status == 0 else { throw AudioTestFailure(description: "ffmpeg \(arguments.joined(separator: " ")) failed") }
    }

    static func temporaryFolder(_ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rec-\(name)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// A PulseAudio server of the test's own: a null sink `rec_test` (its monitor `rec_test.monitor`
/// is a source) and a socket in a private folder, with a private HOME and XDG_RUNTIME_DIR, so the
/// machine's own server, if any, is never touched. Clients name it by `address` (pulse's
/// `server` option, `pactl -s`, `paplay -s`) rather than through PULSE_SERVER, so tests that run
/// side by side never share a process-wide setting. `timeout` ends a server a crashed test left
/// behind.
final class PulseTestServer {
    let folder: String
    let address: String
    private let process: Process

    init() throws {
        guard AudioTools.find("pulseaudio") != nil, AudioTools.find("pactl") != nil, AudioTools.find("paplay") != nil else {
            throw AudioTestFailure(description: "pulseaudio, pactl or paplay is not installed, so the microphone tests cannot run "
                                   + "against a real sound server; run scripts/setup.sh (it installs pulseaudio and pulseaudio-utils)")
        }
        folder = try AudioTools.temporaryFolder("pulse")
        for sub in ["home", "run"] {
            try FileManager.default.createDirectory(atPath: "\(folder)/\(sub)", withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        address = "unix:\(folder)/native"
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = "\(folder)/home"
        environment["XDG_RUNTIME_DIR"] = "\(folder)/run"
        environment["PULSE_SERVER"] = nil
        process = Process()
        process.executableURL = URL(fileURLWithPath: AudioTools.find("timeout") ?? "/usr/bin/timeout")
        process.arguments = ["600", AudioTools.find("pulseaudio")!, "-n", "--daemonize=no", "--exit-idle-time=-1", "--log-level=info",
                             "--disallow-exit", "--use-pid-file=no",
                             "--load=module-null-sink sink_name=rec_test",
                             "--load=module-native-protocol-unix socket=\(folder)/native"]
        process.environment = environment
        _ = FileManager.default.createFile(atPath: "\(folder)/server.log", contents: nil)
        let log = FileHandle(forWritingAtPath: "\(folder)/server.log")
        process.standardOutput = log
        process.standardError = log
        // The server logs "Daemon startup complete." once it answers (a few hundred milliseconds;
        // its socket's file appears earlier, at bind, before it listens: a client then was refused),
        // or exits first: its log's writes wake the watch.
        let events = FileWatch([folder])
        try process.run()
        try waitUntilAnswering(events)
    }

    deinit { stop() }

    /// Waits until the server says it has started (or exits), then asks `pactl info`.
    private func waitUntilAnswering(_ events: FileWatch) throws {
        let started = { ((try? String(contentsOfFile: "\(self.folder)/server.log", encoding: .utf8)) ?? "").contains("Daemon startup complete") }
        _ = events.wait(timeout: 30) { started() || !process.isRunning }
        if process.isRunning, (try? pactl(["info"]).status) == 0 { return }
        let log = (try? String(contentsOfFile: "\(folder)/server.log", encoding: .utf8)) ?? ""
        stop()
        throw AudioTestFailure(description: "the test's PulseAudio server did not start; its log:\n\(log)")
    }

    @discardableResult
    func pactl(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try AudioTools.run("pactl", ["-s", address] + arguments)
    }

    /// Plays a sound file into the null sink, in real time, until it ends or `stop`.
    func play(_ file: String) throws -> Process {
        let player = Process()
        player.executableURL = URL(fileURLWithPath: AudioTools.find("paplay")!)
        player.arguments = ["-s", address, "-d", "rec_test", file]
        player.standardOutput = FileHandle.nullDevice
        player.standardError = FileHandle.nullDevice
        try player.run()
        return player
    }

    /// Plays `seconds` of ffmpeg's sine (1000 Hz, amplitude 1/8, the same in both channels) into
    /// the null sink; the caller kills the player with SIGKILL when done (the test thread's
    /// blocked SIGTERM is paplay's too).
    func playTone(seconds: Int) throws -> Process {
        let tone = "\(folder)/tone-\(seconds).wav"
        try AudioTools.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=\(seconds)",
                               "-af", "pan=stereo|c0=c0|c1=c0", tone])
        return try play(tone)
    }

    /// Sends `signal` to the PulseAudio process itself (not to `timeout`): SIGSTOP to make it stop
    /// answering, SIGCONT to resume it, SIGKILL to make it vanish.
    func signalServer(_ signal: Int32) {
        let pid = process.processIdentifier
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        for server in children.split(separator: " ").compactMap({ pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
            kill(server, signal)
        }
    }

    /// Stops the server with SIGTERM sent to it, not to `timeout`: a process started from a
    /// test's thread inherits that thread's blocked signals, and `timeout` (unlike PulseAudio)
    /// never unblocks SIGTERM, so it would not pass the signal on.
    func stop() {
        signalServer(SIGCONT)
        if process.isRunning {
            let pid = process.processIdentifier
            let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
            let servers = children.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            for server in servers { kill(server, SIGTERM) }
            if servers.isEmpty { kill(pid, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// Reading samples out of chunks, and what a test measures of them.
enum AudioSignal {
    /// Channel 0 of a chunk as floats in −1…1 (float planar or signed 16-bit interleaved).
    static func firstChannel(_ frame: AudioFrame) -> [Float] {
        let count = frame.sampleCount
        guard let data = frame.pointer.pointee.extended_data[0] else { return [] }
        switch AVSampleFormat(rawValue: frame.format.sampleFormat) {
        case AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_FLT:
            let step = frame.format.sampleFormat == AV_SAMPLE_FMT_FLT.rawValue ? frame.format.channels : 1
            return data.withMemoryRebound(to: Float.self, capacity: count * step) { p in (0..<count).map { p[$0 * step] } }
        case AV_SAMPLE_FMT_S16:
            let step = frame.format.channels
            return data.withMemoryRebound(to: Int16.self, capacity: count * step) { p in (0..<count).map { Float(p[$0 * step]) / 32768 } }
        default:
            return []
        }
    }

    /// Root mean square.
    static func rms(_ samples: ArraySlice<Float>) -> Double {
        (samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))).squareRoot()
    }

    /// Frequency from rising zero crossings.
    static func frequency(_ samples: ArraySlice<Float>, rate: Int) -> Double {
        let rising = zip(samples.dropLast(), samples.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        return Double(rising) * Double(rate) / Double(samples.count)
    }

    /// The clicks, as the test tone's documentation says to find them: the first sample whose
    /// |value| exceeds 0.5 after at least 0.5 s (at `rate`) of samples at or below it; the start
    /// counts as quiet.
    static func clicks(_ samples: [Float], rate: Int) -> [Int] {
        var found: [Int] = []
        var quietSince = -rate
        for (i, value) in samples.enumerated() where abs(value) > 0.5 {
            if i - quietSince >= rate / 2 { found.append(i) }
            quietSince = i + 1
        }
        return found
    }
}
