import Foundation
import Testing
import TestServers
import TestPool

/// Issue 21: `rec record --source URL` records real servers on loopback as they came: every
/// frame the camera sent, once, in order (its counter), at its own time, the camera's codec
/// and sound copied, clicks with the flashes, and a file that decodes to the end.
@Suite(.blocking) struct NetworkRecordTests {
    /// One recording: a mount of the stand-in RTSP camera, into a container.
    struct Take: Sendable, CustomTestStringConvertible {
        let mount: RTSPTestServer.Mount
        let container: String
        var testDescription: String { "\(mount.rawValue) → .\(container)" }

        /// ffprobe's name for the sound in the file: copied as it came (G.711 only in Matroska here).
        var soundCodec: String? { mount.audioCodec }
    }

    static let takes = [Take(mount: .h264, container: "mp4"), Take(mount: .h264BFrames, container: "mp4"),
                        Take(mount: .h264BFrames, container: "mkv"), Take(mount: .h265, container: "mp4"),
                        Take(mount: .longGOP, container: "mp4"), Take(mount: .opus, container: "mp4"),
                        Take(mount: .silent, container: "mp4"), Take(mount: .pcma, container: "mkv"),
                        Take(mount: .h264Sliced, container: "mp4")]

    /// Three seconds of a mount (`--frames 90`: `--duration` may take frame 90 too, where the
    /// 500 ppm slew places it a hair before 3 s): frames 0–89 (session time 0 is the first
    /// keyframe, the camera's frame 0 for a client that just connected), each at its counter's time.
    @Test(arguments: takes) func recordsTheCameraAsItCame(_ take: Take) throws {
        let server = try RTSPTestServer()
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/camera.\(take.container)"
        let run = try RecBinary.run(["record", "--source", server.url(take.mount), "--frames", "90", "-o", path])
        let check: () throws -> Void = {
            try #require(run.status == 0, "rec record: \(run.error)")
            try Self.expectCameraFrames(path, count: 90)
            let video = try NetworkClip.stream("video", in: path)
            #expect(video?["codec_name"] as? String == take.mount.videoCodec)
            let audio = try NetworkClip.stream("audio", in: path)
            #expect(audio?["codec_name"] as? String == take.soundCodec, "sound \(String(describing: audio?["codec_name"]))")
            if take.soundCodec != nil {
                let seconds = try SoundProbe.audioDuration(in: path)
                #expect(seconds > 2.8, "\(seconds) s of sound in 3 s")
                let errors = try NetworkClip.syncErrors(path)
                #expect(errors.count >= 2 && errors.allSatisfy { abs($0) < NetworkClip.frame }, "click − flash: \(errors)")
            }
        }
        // A B-frame camera's first keyframe comes without times (as every RTSP stream's does):
        // timed by its arrival, it was presented after the B-frames decoded next (MP4 refused
        // pts < dts; Matroska got wrong times).
        try check()
        if take.mount == .h265 {
            // Apple's players and browsers take H.265 in MP4 only as hvc1.
            let tag = try NetworkClip.stream("video", in: path)?["codec_tag_string"] as? String
            #expect(tag == "hvc1")
        }
    }

    /// The frames of `path` are the camera's 0..<count, each presented at its counter's time
    /// (within 3 ms: the timeline's 500 ppm slew, Matroska's milliseconds), and the file decodes
    /// to its end without an error.
    static func expectCameraFrames(_ path: String, count: Int, first: Int = 0) throws {
        let counters = try NetworkClip.counters(path)
        #expect(counters == Array(first..<(first + count)),
                "\(counters.count) frames from \(counters.first ?? -1), breaks \(NetworkClip.breaks(counters))")
        let times = try NetworkClip.frames(path).map(\.time)
        if times.count == counters.count, let zero = times.first {
            let late = zip(times, counters).map { ($0 - zero) - Double($1 - first) * NetworkClip.frame }
            #expect(late.allSatisfy { abs($0) < 0.003 }, "frame times off their counters by up to \(late.map(abs).max() ?? 0) s")
        }
        try NetworkClip.expectDecodes(path)
    }

    /// RTMP, SRT and HTTP MJPEG from ffmpeg's own listeners: two seconds, every frame in order.
    @Test(arguments: [FFmpegTestServer.Kind.rtmp, .srt, .httpMJPEG]) func recordsFFmpegServers(_ kind: FFmpegTestServer.Kind) throws {
        let server = try FFmpegTestServer(kind)
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/camera.mkv"
        let run = try RecBinary.run(["record", "--source", server.url, "--frames", "60", "-o", path])
        try #require(run.status == 0, "rec record: \(run.error) \(server.process.logTail())")
        let counters = try NetworkClip.counters(path)
        #expect(counters.count == 60 && NetworkClip.consecutive(counters),
                "\(counters.count) frames from \(counters.first ?? -1), breaks \(NetworkClip.breaks(counters))")
        try NetworkClip.expectDecodes(path)
        let sound = try NetworkClip.stream("audio", in: path)?["codec_name"] as? String
        #expect(sound == (kind == .httpMJPEG ? nil : "aac"))
    }
}
