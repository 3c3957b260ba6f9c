import Foundation
import Media
import RecCore

/// One connection to a network camera: its demuxer, and the streams rec records from it (the best
/// video stream, and every sound stream, `.sound(0)` on by their place among them). Every libavformat call runs under a deadline on
/// the source's `InterruptFlag`, so a camera that goes silent without closing the connection
/// ends a read within `stallSeconds`, and a stop ends it at once.
final class NetworkInput {
    let demuxer: Demuxer
    let video: Demuxer.Stream
    let sound: [Demuxer.Stream]
    private let interrupt: InterruptFlag
    private let stallSeconds: Double
    private let url: NetworkURL
    // `@exclusivity(unchecked)`: the state touched for every packet. This object is owned by one
    // thread and never lends that state across a call that could reach it again, so the runtime's
    // check of each access (~80 instructions under callgrind, several per packet) never fires.
    /// Set once a read outlived its deadline: the camera is silent, whatever is still buffered.
    @exclusivity(unchecked) private var stalled = false

    private init(demuxer: Demuxer, video: Demuxer.Stream, sound: [Demuxer.Stream], interrupt: InterruptFlag,
                 stallSeconds: Double, url: NetworkURL) {
        self.demuxer = demuxer
        self.video = video
        self.sound = sound
        self.interrupt = interrupt
        self.stallSeconds = stallSeconds
        self.url = url
    }

    /// Connects and reads the stream information, within `settings.connectSeconds`.
    static func open(_ url: NetworkURL, settings: NetworkSource.Settings, interrupt: InterruptFlag) throws(RecError) -> NetworkInput {
        try NetworkErrors.checkHostResolves(url)
        interrupt.expire(after: settings.connectSeconds)
        defer { interrupt.expire(after: nil) }
        let demuxer: Demuxer
        do {
            demuxer = try Demuxer(url: url.address, name: url.redacted, options: options(for: url, settings: settings),
                                  interrupt: interrupt)
        } catch {
            throw NetworkErrors.explain(error, url: url, interrupt: interrupt, connectSeconds: settings.connectSeconds)
        }
        guard let index = demuxer.bestVideoStream else {
            throw .usage("\(url.redacted) sends no pictures (its streams: \(describe(demuxer.streams))); check the URL's path or channel")
        }
        let video = demuxer.streams[index]
        let sound = demuxer.streams.filter { $0.parameters.streamKind == .sound }
        return NetworkInput(demuxer: demuxer, video: video, sound: sound, interrupt: interrupt,
                            stallSeconds: settings.stallSeconds, url: url)
    }

    /// The libavformat options for a URL: RTSP's transport and socket timeout, a read timeout for
    /// the protocols that take one. The deadline on the interrupt flag covers every protocol; the
    /// timeouts make libavformat give up a dead socket by itself as well.
    static func options(for url: NetworkURL, settings: NetworkSource.Settings) -> [(String, String)] {
        let micros = String(Int64(settings.stallSeconds * 1_000_000))
        switch url.scheme {
        case .rtsp, .rtsps:
            return [("rtsp_transport", (url.transport ?? .tcp).rawValue), ("timeout", micros), ("user_agent", "rec")]
        case .http, .https:
            return [("rw_timeout", micros), ("user_agent", "rec")]
        case .rtmp, .rtmps:
            return [("rw_timeout", micros)]
        case .srt:
            return [("rw_timeout", micros)]
        }
    }

    /// The next packet of a recorded stream (video first in `streams`, sound after), nil once
    /// stopped. Throws a disconnect when nothing arrived for `stallSeconds`, the connection broke
    /// or the server ended the stream.
    ///
    /// A read cut off by the deadline may still return packets: libavformat's RTSP demuxer takes
    /// the interrupted read for the end of the stream and flushes its parsers (the last frame,
    /// measured on a frozen server). The deadline then stays passed, so the reads that follow
    /// hand out only what was buffered and the stall is reported at once, not after another
    /// `stallSeconds` (10 s in all before).
    func read() throws(RecError) -> (packet: EncodedPacket, isVideo: Bool)? {
        while true {
            if !stalled { interrupt.expire(after: stallSeconds) }
            let packet: EncodedPacket?
            do {
                packet = try demuxer.read()
            } catch {
                if interrupt.isSet { return nil }
                throw NetworkErrors.lost(error, url: url, stalled: stalled || interrupt.hasExpired, stallSeconds: stallSeconds)
            }
            if interrupt.hasExpired { stalled = true }
            guard let packet else {
                guard stalled else { throw NetworkErrors.ended(url: url) }
                throw NetworkErrors.lost(FFmpegError(code: FFmpegError.eof, operation: "av_read_frame"), url: url, stalled: true,
                                         stallSeconds: stallSeconds)
            }
            if packet.streamIndex == video.index { return (consume packet, true) }
            if sound.contains(where: { $0.index == packet.streamIndex }) { return (consume packet, false) }
        }
    }

    /// Set once the camera has sent an RTCP sender report (libavformat's `start_time_realtime`):
    /// how `NetworkProbe` tells that it sends them. The wall clock comes from `reportedWallClock`.
    var startTimeRealtime: Timestamp? { demuxer.startTimeRealtime }

    /// The wall-clock time the camera's sender reports give the packet read last
    /// (`Demuxer.reportedWallClock`); nil before its stream's first report.
    var reportedWallClock: Timestamp? { demuxer.reportedWallClock }

    static func describe(_ streams: [Demuxer.Stream]) -> String {
        streams.isEmpty ? "none" : streams.map { "\($0.parameters.streamKind.rawValue) \($0.parameters.codecName)" }.joined(separator: ", ")
    }
}
