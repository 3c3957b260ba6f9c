import Capture
import Media
import RecClient
import RecCore
import SessionControl

/// `rec probe URL`: connects to a network camera and says what it offers (streams, codecs, size,
/// rate, keyframe interval, sound, whether it sends RTCP sender reports), reading a few seconds.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "probe",
        abstract: "Say what a network camera's URL offers: its streams, codecs, size, rate, sound and clock.",
        examples: [
            Example("Check a camera before recording it.", "rec probe rtsp://admin:secret@192.168.1.20:554/stream1"),
        ]
    )
    static let arguments: [ArgumentSpec] = [.url, .probeSeconds, .json]

    var url: String
    var seconds: String
    var json: Bool

    init(_ values: ParsedValues) throws(RecError) {
        url = try values.require(.url)
        seconds = try values.require(.probeSeconds)
        json = values.flag(.json)
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        guard NetworkURL.isNetwork(url) else {
            throw .usage("'\(NetworkURL.redacting(url))' is not a camera URL; give rtsp://, rtsps://, rtmp://, srt:// or http(s)://, "
                         + "or use 'rec devices' for cameras on this machine")
        }
        let parsed = try NetworkURL.parse(url)
        let limit = try TimeParser.duration(seconds).seconds
        guard limit > 0, limit <= 60 else { throw .usage("--seconds \(seconds) must be from 1s to 60s") }
        FFmpegLog.quiet()
        let report = try NetworkProbe.run(parsed, seconds: limit)
        context.console.print(json ? JSONText.encode(report) : report.text)
        return 0
    }
}

extension ArgumentSpec {
    static let url = positional("url", help: "The camera's URL: rtsp://, rtsps://, rtmp://, srt:// or http(s)://.")
    static let probeSeconds = option("seconds", value: "time", default: "5s",
                                     help: "How long to read the stream at most (it stops once it has seen enough).")
}
