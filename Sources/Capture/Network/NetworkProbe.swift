import Dispatch
import Media
import RecCore

/// `rec probe URL`: what a network camera offers, read off a few seconds of its stream, so a
/// user can check a camera before recording it.
package struct NetworkProbe: Sendable, Codable, Equatable {
    package struct Video: Sendable, Codable, Equatable {
        package var codecName: String
        package var width: Int
        package var height: Int
        /// The rate the stream declares, if it does.
        package var declaredFPS: Double?
        /// Pictures per second over what was read.
        package var measuredFPS: Double?
        /// Seconds between keyframes seen, when two were.
        package var keyframeInterval: Double?
        /// Whether pictures come out of order (pts ≠ dts): B-frames.
        package var bFrames: Bool
    }

    package struct Sound: Sendable, Codable, Equatable {
        package var codecName: String
        package var sampleRate: Int
        package var channels: Int
        /// Whether the sound goes into .mp4 as it came (else rec records it in .mkv, or without it).
        package var copiesIntoMP4: Bool
    }

    package var url: String
    package var transport: String?
    package var video: Video
    package var sound: [Sound]
    /// Whether an RTCP sender report arrived while probing (wall-clock times from the camera).
    package var senderReports: Bool
    package var seconds: Double

    /// Reads `seconds` of the stream (fewer if two keyframes and a sender report came first).
    package static func run(_ url: NetworkURL, seconds: Double, interrupt: InterruptFlag = InterruptFlag()) throws(RecError) -> NetworkProbe {
        var settings = NetworkSource.Settings(copies: true, keepsSound: true)
        settings.stallSeconds = max(settings.stallSeconds, seconds)
        let input = try NetworkInput.open(url, settings: settings, interrupt: interrupt)
        let v = input.video.parameters
        let start = DispatchTime.now().uptimeNanoseconds
        var times: [Double] = []
        var keyframes: [Double] = []
        var reordered = false
        var reports = false
        while Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 < seconds {
            guard let (packet, isVideo) = try input.read() else { break }
            reports = reports || input.startTimeRealtime != nil
            guard isVideo, packet.pts != Int64.min else { continue }
            let t = packet.presentationTime.seconds
            times.append(t)
            if packet.pts != packet.dts { reordered = true }
            if packet.isKeyframe { keyframes.append(t) }
            if keyframes.count >= 3 && reports && times.count > 60 { break }
        }
        let span = (times.max() ?? 0) - (times.min() ?? 0)
        let video = Video(codecName: v.codecName, width: v.width, height: v.height,
                          declaredFPS: input.video.frameRate.map(\.doubleValue),
                          measuredFPS: times.count > 1 && span > 0 ? Double(times.count - 1) / span : nil,
                          keyframeInterval: keyframes.count > 1
                              ? ((keyframes.last ?? 0) - (keyframes.first ?? 0)) / Double(keyframes.count - 1) : nil,
                          bFrames: reordered)
        let sound = input.sound.map { s in
            Sound(codecName: s.parameters.codecName, sampleRate: s.parameters.sampleRate, channels: s.parameters.channels,
                  copiesIntoMP4: SoundPlan.copied(into: .mp4).contains(s.parameters.codec))
        }
        return NetworkProbe(url: url.redacted, transport: url.transport?.rawValue, video: video, sound: sound,
                            senderReports: reports, seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// The report for people.
    package var text: String {
        var lines = [url + (transport.map { " (RTSP over \($0.uppercased()))" } ?? "")]
        var picture = "  video  \(video.codecName) \(video.width)x\(video.height)"
        if let fps = video.measuredFPS ?? video.declaredFPS { picture += String(format: ", %.2f fps", fps) }
        if let k = video.keyframeInterval { picture += String(format: ", a keyframe every %.2f s", k) }
        picture += video.bFrames ? ", B-frames" : ", no B-frames"
        lines.append(picture)
        if sound.isEmpty { lines.append("  sound  none") }
        for s in sound {
            lines.append("  sound  \(s.codecName) \(s.sampleRate) Hz, \(s.channels) channel\(s.channels == 1 ? "" : "s")"
                         + (s.copiesIntoMP4 ? "" : " (kept as it came in .mkv; re-encoded to AAC in .mp4)"))
        }
        lines.append(senderReports ? "  time   the camera sends RTCP sender reports: wall-clock times come from its clock"
                                   : "  time   no RTCP sender report within \(Int(seconds.rounded())) s: wall-clock times come from arrival")
        lines.append("  record rec start --source '\(url)' (its \(video.codecName) is stored as it comes)")
        return lines.joined(separator: "\n")
    }
}
