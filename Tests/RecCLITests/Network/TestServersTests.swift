import Foundation
import Testing
import TestServers
import TestPool

/// Issue 21: the stand-in network cameras (gst-rtsp-server and ffmpeg's listeners) serve what they
/// say, as ffprobe sees it, and survive the mistreatment the outage tests need.
@Suite(.blocking) struct TestServersTests {
    /// ffprobe on `url` (RTSP over TCP; the others after 1 s of stream, not 5, since their
    /// headers name no codec) with `arguments` before it; its status, stdout and stderr.
    static func probe(_ url: String, _ arguments: [String] = ["-show_streams", "-of", "json"]) throws -> Tool.Output {
        let transport = url.hasPrefix("rtsp") ? ["-rtsp_transport", "tcp"] : ["-analyzeduration", "1000000"]
        return try Tool.run("ffprobe", ["-v", "error"] + transport + arguments + [url], check: false)
    }

    /// The streams ffprobe's JSON lists, as dictionaries.
    static func streams(_ output: Tool.Output) throws -> [[String: Any]] {
        let json = try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any]
        return json?["streams"] as? [[String: Any]] ?? []
    }

    @Test func everyMountServesTheCodecsItNames() throws {
        let server = try RTSPTestServer()
        // All at once: each probe mostly waits for the stream.
        let probes = try RTSPTestServer.Mount.allCases.map { mount in
            (mount, try Tool.start("ffprobe", ["-v", "error", "-rtsp_transport", "tcp", "-show_streams", "-of", "json",
                                               server.url(mount)]))
        }
        for (mount, running) in probes {
            let output = try running.finish()
            try #require(output.status == 0, "\(mount): \(output.stderr)")
            let streams = try Self.streams(output)
            let video = streams.filter { $0["codec_type"] as? String == "video" }
            let audio = streams.filter { $0["codec_type"] as? String == "audio" }
            #expect(video.map { $0["codec_name"] as? String } == [mount.videoCodec], "\(mount)")
            // RTP/JPEG gives sizes in 8-pixel units: 90 rows arrive as 96.
            #expect(video.first?["width"] as? Int == 160 && video.first?["height"] as? Int == (mount == .mjpeg ? 96 : 90), "\(mount)")
            #expect(audio.map { $0["codec_name"] as? String } == mount.audioCodecs, "\(mount)")
            if mount.audioCodec == "pcm_alaw" || mount.audioCodec == "pcm_mulaw" {
                #expect(audio.first?["sample_rate"] as? String == "8000", "\(mount)")
            }
            let bframes: [RTSPTestServer.Mount] = [.h264BFrames, .h264Main, .h264High, .h265BFrames]
            if bframes.contains(mount) || mount == .h264 || mount == .h264Baseline {
                let reorder = video.first?["has_b_frames"] as? Int ?? -1
                #expect(bframes.contains(mount) ? reorder > 0 : reorder == 0, "\(mount) has_b_frames \(reorder)")
            }
        }
    }

    @Test(arguments: [false, true]) func credentialsAreAskedFor(digest: Bool) throws {
        let server = try RTSPTestServer(.init(credentials: ("camera", "p@ss word"), digest: digest))
        for url in [server.url(.h264), server.url(.h264, user: "camera", password: "wrong")] {
            let refused = try Self.probe(url)
            #expect(refused.status != 0 && refused.stderr.contains("401"), "\(refused.stderr)")
        }
        let allowed = try Self.probe(server.authorizedURL(.silent))
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(try Self.streams(allowed).map { $0["codec_name"] as? String } == ["h264"])
    }

    /// The RTP timestamps (as ffprobe's packet times) of both streams move by the mount's jump
    /// between the frames and samples either side of 4 s. With RTCP, the next sender report maps
    /// them back onto the wall clock in libavformat's times; without, the jump stays. The packets
    /// keep their pace through it, so the two streams stay interleaved: a jump back that moved
    /// the server's own running time sent 5 s of pictures at once (150 frames in 2 s), and a
    /// recording of 210 frames ended before the camera had sent its sound.
    @Test(arguments: [RTSPTestServer.Mount.jump, .jumpBack, .jumpNoRTCP])
    func timestampsJump(mount: RTSPTestServer.Mount) throws {
        let server = try RTSPTestServer()
        // ~6 s of packets (30 frames and ~47 AAC frames a second), by count: times jump.
        let output = try Self.probe(server.url(mount), ["-read_intervals", "%+#500", "-show_entries",
                                                        "packet=stream_index,pts_time", "-of", "csv=p=0"])
        try #require(output.status == 0, "\(output.stderr)")
        var times: [Int: [Double]] = [:]
        var order: [Int] = []
        for line in String(decoding: output.stdout, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let stream = Int(fields[0]), let time = Double(fields[1]) else { continue }
            times[stream, default: []].append(time)
            order.append(stream)
        }
        #expect(times.count == 2)
        // The longest run of one stream's packets read in a row: a second of pictures is 30.
        var (longest, run) = (0, 0)
        for (previous, stream) in zip([-1] + order, order) {
            run = stream == previous ? run + 1 : 1
            longest = max(longest, run)
        }
        #expect(longest < 30, "\(longest) packets of one stream in a row")
        for (stream, list) in times {
            let steps = zip(list, list.dropFirst()).map { (before: $0, step: $1 - $0) }
            let jumps = steps.filter { abs($0.step) > 1 }
            let first = try #require(jumps.first, "stream \(stream) never jumps")
            #expect(abs(first.step - mount.timestampJump) < 0.1, "stream \(stream): \(first)")
            #expect(abs(first.before - list[0] - 4) < 0.1, "stream \(stream) jumps at \(first.before - list[0]) s")
            if !mount.sendsSenderReports {
                #expect(jumps.count == 1, "stream \(stream): \(jumps)")
            }
        }
    }

    @Test func theLateMountsFirstKeyframeComesSixSecondsIn() throws {
        let server = try RTSPTestServer()
        let output = try Self.probe(server.url(.lateKeyframe), ["-select_streams", "v", "-read_intervals", "%+#200",
                                                                "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0"])
        let packets = String(decoding: output.stdout, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",")
            return fields.count >= 2 ? Double(fields[0]).map { (time: $0, key: fields[1].hasPrefix("K")) } : nil
        }
        let first = try #require(packets.first)
        let keyframes = packets.filter(\.key).map { $0.time - first.time }
        #expect(!first.key)
        // The keyframe is the frame at 6 s; the first frame sent is at 1/30 s (ffprobe may miss it).
        #expect(keyframes.count == 1 && keyframes[0] > 5.8 && keyframes[0] < 6, "\(keyframes)")
    }

    /// gst's rtpbin sends sender reports (RTCP, interleaved channels 1 and 3 after the media's 0
    /// and 2) unless the mount turns RTCP off; ffmpeg's trace names each interleaved packet's channel.
    @Test(arguments: [RTSPTestServer.Mount.h264, .noRTCP]) func senderReports(mount: RTSPTestServer.Mount) throws {
        let server = try RTSPTestServer()
        let output = try Tool.run("ffprobe", ["-v", "trace", "-rtsp_transport", "tcp", "-read_intervals", "%+#400",
                                              "-show_entries", "packet=pts_time", "-of", "csv=p=0", server.url(mount)])
        let channels = Set(output.stderr.split(separator: "\n").compactMap { line -> Int? in
            guard let range = line.range(of: "] id=") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        })
        #expect(channels == (mount.sendsSenderReports ? [0, 1, 2, 3] : [0, 2]))
    }

    @Test func theServerIsKilledFrozenAndRestartedOnItsPort() throws {
        let server = try RTSPTestServer()
        let url = server.url(.silent), port = server.port
        #expect(try Self.probe(url).status == 0)

        server.pause()
        // A frozen server accepts the connection (the kernel does) and never answers.
        let frozen = try Self.probe(url, ["-timeout", "1000000", "-show_streams"])
        #expect(frozen.status != 0, "a frozen server answered")
        server.resume()
        #expect(try Self.probe(url).status == 0, "the server answers once continued")

        server.kill()
        #expect(!server.process.isRunning)
        let gone = try Self.probe(url)
        #expect(gone.status != 0 && gone.stderr.contains("Connection refused"), "\(gone.stderr)")

        try server.restart()
        #expect(server.port == port)
        #expect(try Self.probe(url).status == 0, "the restarted server answers on the same port")
        server.stop()
        #expect(server.process.status.map { $0 & 0x7f } == SIGTERM)
    }

    /// Each ffmpeg listener serves one client the codecs it names, exits when the client leaves,
    /// and serves the next after a restart on the same port.
    @Test(arguments: FFmpegTestServer.Kind.allCases) func ffmpegServesOneClientAtATime(kind: FFmpegTestServer.Kind) throws {
        let server = try FFmpegTestServer(kind)
        let port = server.port
        for round in 0..<2 {
            let output = try Self.probe(server.url)
            try #require(output.status == 0, "\(kind) round \(round): \(output.stderr) \(server.process.logTail())")
            #expect(try Self.streams(output).compactMap { $0["codec_name"] as? String } == kind.codecs, "\(kind)")
            #expect(server.process.waitForExit(timeout: .seconds(30)), "ffmpeg ends with its client")
            if round == 0 { try server.restart() }
        }
        #expect(server.port == port)
    }

    /// The picture counts its frames and flashes on each whole second, on the RTSP server and on
    /// ffmpeg's (the same layout), with the clicks in time: 2.5 s of each, copied and decoded.
    @Test(arguments: ["rtsp", "rtmp"]) func thePictureCountsFramesAndFlashesEachSecond(protocol name: String) throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rtsp = name == "rtsp" ? try RTSPTestServer() : nil
        let rtmp = name == "rtmp" ? try FFmpegTestServer(.rtmp) : nil
        let url = rtsp?.url(.h264) ?? rtmp?.url ?? ""
        let clip = folder + "/clip.mkv"
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error"] + (rtsp == nil ? [] : ["-rtsp_transport", "tcp"])
                     + ["-i", url, "-t", "2.5", "-c", "copy", clip])
        let gray = try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-i", clip, "-map", "0:v", "-fps_mode", "passthrough", "-f", "rawvideo",
                                           "-pix_fmt", "gray", "-"])
        let frames = StandInPicture(width: 160, height: 90).readAll([UInt8](gray.stdout))
        try #require(frames.count >= 55, "\(frames.count) frames")
        #expect(frames.map(\.counter) == Array(frames[0].counter..<frames[0].counter + frames.count), "counted in order")
        #expect(frames.filter(\.flash).map(\.counter) == frames.map(\.counter).filter { $0 % 30 == 0 })
        // The clicks sound with the flashes, as the sound tests measure them (on the RTSP server's
        // AAC, the first click falls in the encoder's priming: its header says why).
        let errors = try SoundProbe.syncErrors(in: clip).filter { $0.second > 0.5 }
        #expect(!errors.isEmpty && errors.allSatisfy { abs($0.error) < 0.002 }, "\(errors)")
    }
}
