import Foundation
import Glibc
import Media
import Testing
import TestPool

/// `rec start --publish`: the encoded packets reach a real RTMP receiver (ffmpeg listening on
/// loopback), publishing resumes after the receiver is killed and restarted, and the recording
/// loses nothing meanwhile.
@Suite(.blocking) struct PublishTests {
    typealias Sandbox = BackgroundSessionTests.Sandbox

    static func receiver(port: Int, output: String) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        p.arguments = ["-nostdin", "-v", "error", "-analyzeduration", "0", "-probesize", "4096", "-listen", "1",
                       "-i", "rtmp://127.0.0.1:\(port)/live/x", "-c", "copy", "-flush_packets", "1", "-y", output]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    /// SIGKILL: the test process's threads block SIGINT and SIGTERM, and ffmpeg inherits that mask.
    /// An FLV cut short is still readable up to its last whole packet.
    static func kill(_ process: Process) {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits until the receiver has written `bytes` of what it got: looked at each time the
    /// file changes (it flushes every packet).
    static func wait(for file: String, bytes: Int) {
        let grown = Observe.until(watching: [(file as NSString).deletingLastPathComponent]) {
            ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0) >= bytes
        }
        if !grown { Issue.record("\(file) never reached \(bytes) bytes") }
    }

    /// Waits until the session's publish status satisfies `ready`: looked at each time the
    /// session writes its log (the publisher logs each connection and each failure). Not on the
    /// receivers' files: they change with every packet, and a status each time loads the machine.
    static func wait(_ sandbox: Sandbox, _ what: String, until ready: ([String: String]) -> Bool) throws {
        let reached = try Observe.until(watching: [sandbox.folder + "/run/rec/default/log"]) {
            ready(try sandbox.status()["extra"] as? [String: String] ?? [:])
        }
        if !reached { Issue.record("publishing never reached: \(what) (\(try sandbox.status()["extra"] ?? [:]))") }
    }

    /// FLV and MPEG-TS carry milliseconds and 90 kHz ticks; a click is placed within 2 ms of its flash.
    static let syncBound = 0.002
    /// A connection's sound starts with its first picture, within one AAC frame (21 ms).
    static let soundStartBound = 0.022

    /// SRT (MPEG-TS) and RTSP (RTP): a real ffmpeg listener gets the session's pictures in order and its sound in sync.
    @Test(arguments: [("srt", "mpegts"), ("rtsp", "mpegts")])
    func srtAndRTSPReceiversGetPicturesAndSound(_ scheme: String, _ format: String) throws {
        let sandbox = try Sandbox()
        let port = HTTPTestClient.freePort()
        let output = sandbox.path("received.ts")
        let receiver = Process()
        receiver.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        let input = scheme == "srt" ? ["-i", "srt://127.0.0.1:\(port)?mode=listener"] : ["-rtsp_flags", "listen", "-i", "rtsp://127.0.0.1:\(port)/live"]
        receiver.arguments = ["-nostdin", "-v", "error"] + input + ["-map", "0", "-c", "copy", "-f", format, "-flush_packets", "1", "-y", output]
        receiver.standardOutput = FileHandle.nullDevice
        receiver.standardError = FileHandle.nullDevice
        try receiver.run()
        defer { if receiver.isRunning { Self.kill(receiver) } }
        // No wait for the receiver to listen: until it does, the publisher retries.
        let url = scheme == "srt" ? "srt://127.0.0.1:\(port)" : "rtsp://127.0.0.1:\(port)/live"
        let started = try sandbox.rec(["start", "--source", "test:320x240@30", "--no-file", "--audio", "test", "--publish", url])
        #expect(started.status == 0, "\(started.error)")
        try Self.wait(sandbox, "publishing") { $0["publish_state"] == "publishing" && $0["publish_sound"] == "aac" }
        Self.wait(for: output, bytes: 400_000)
        Self.kill(receiver)
        #expect(try sandbox.rec(["stop"]).status == 0)
        let frames = try FrameReader.read(path: output).frames.compactMap(\.stamp)
        #expect(frames.count > 60 && BackgroundSessionTests.consecutive(frames), "\(scheme): \(frames)")
        let errors = try SoundProbe.syncErrors(in: output).filter { $0.second > 0.5 }
        #expect(errors.count >= 2 && errors.allSatisfy { abs($0.error) <= Self.syncBound }, "\(scheme): click against flash \(errors)")
        let start = try SoundProbe.audioStart(in: output)
        #expect(abs(start) <= Self.soundStartBound, "\(scheme): the sound starts \(start) s from the pictures")
    }

    @Test func publishingSurvivesTheServerGoingAwayAndTheRecordingLosesNothing() throws {
        let sandbox = try Sandbox()
        let port = HTTPTestClient.freePort()
        let first = try Self.receiver(port: port, output: sandbox.path("first.flv"))
        defer { if first.isRunning { Self.kill(first) } }
        // No wait for the receiver to listen: until it does, the publisher retries.
        let started = try sandbox.rec(["start", "--source", "test:320x240@30", "-o", sandbox.path("rec.mp4"), "--audio", "test",
                                       "--publish", "rtmp://127.0.0.1:\(port)/live/x"])
        #expect(started.status == 0, "\(started.error)")
        Self.wait(for: sandbox.path("first.flv"), bytes: 150_000)
        // Retries before the first receiver listened do not count.
        let retriesBefore = Int(try sandbox.status()["extra"].flatMap { ($0 as? [String: String])?["publish_retries"] } ?? "") ?? 0
        Self.kill(first)
        try Self.wait(sandbox, "a retry") { Int($0["publish_retries"] ?? "") ?? 0 > retriesBefore && $0["publish_state"] != "publishing" }
        let second = try Self.receiver(port: port, output: sandbox.path("second.flv"))
        defer { if second.isRunning { Self.kill(second) } }
        try Self.wait(sandbox, "publishing again") { $0["publish_state"] == "publishing" }
        Self.wait(for: sandbox.path("second.flv"), bytes: 150_000)
        Self.kill(second)
        #expect(try sandbox.rec(["stop"]).status == 0)

        let a = try FrameReader.read(path: sandbox.path("first.flv")).frames.compactMap(\.stamp)
        let b = try FrameReader.read(path: sandbox.path("second.flv")).frames.compactMap(\.stamp)
        #expect(a.count > 20 && BackgroundSessionTests.consecutive(a), "first receiver: \(a)")
        #expect(b.count > 20 && BackgroundSessionTests.consecutive(b), "second receiver: \(b)")
        #expect((b.first ?? 0) > (a.last ?? .max), "the second connection starts after the first ended")
        // The sound went too, in sync (a connection starts at a picture keyframe, its sound a
        // little after: the first second is left out).
        for file in ["first.flv", "second.flv"] {
            let errors = try SoundProbe.syncErrors(in: sandbox.path(file)).filter { $0.second > 0.5 }
            #expect(errors.count >= 1 && errors.allSatisfy { abs($0.error) <= Self.syncBound }, "\(file): click against flash \(errors)")
            let start = try SoundProbe.audioStart(in: sandbox.path(file))
            #expect(abs(start) <= Self.soundStartBound, "\(file): the sound starts \(start) s from the pictures")
        }
        let recorded = try FrameReader.read(path: sandbox.path("rec.mp4")).frames.map(\.stamp)
        #expect(recorded.first == 0 && BackgroundSessionTests.consecutive(recorded) && recorded.count > (b.last ?? 0))
    }
}
