/// A `--publish URL`: which libavformat muxer carries the packets there (flv for RTMP, MPEG-TS for
/// SRT, the rtsp muxer for RTSP), and how it is shown in status (no password, no query).
package struct PublishTarget: Sendable, Equatable {
    /// The kind of server, from the URL's scheme.
    package enum Kind: Sendable, Equatable {
        /// rtmp://, rtmps://: FLV.
        case rtmp
        /// srt://, udp://, tcp://: MPEG-TS.
        case mpegTS
        /// rtsp://, rtsps://: RTP over the RTSP session (interleaved in its TCP connection).
        case rtsp
    }

    package var url: String
    package var kind: Kind

    /// The libavformat muxer: flv, mpegts or rtsp.
    package var format: String {
        switch kind {
        case .rtmp: "flv"
        case .mpegTS: "mpegts"
        case .rtsp: "rtsp"
        }
    }

    package static func parse(_ url: String) throws(RecError) -> PublishTarget {
        let scheme = url.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        let kind: Kind
        switch scheme {
        case "rtmp", "rtmps": kind = .rtmp
        case "srt", "udp", "tcp": kind = .mpegTS
        case "rtsp", "rtsps": kind = .rtsp
        default:
            throw .usage("--publish \(url): rec publishes to rtmp://, srt:// or rtsp:// URLs, e.g. --publish rtmp://127.0.0.1/live/cam")
        }
        guard url.contains("://"), url.count > scheme.count + 3 else {
            throw .usage("--publish \(url) has no server; e.g. --publish \(scheme)://127.0.0.1:1935/live/cam")
        }
        return PublishTarget(url: url, kind: kind)
    }

    /// The URL without credentials or query (SRT passphrases and stream keys live there).
    package var display: String { URLText.withoutSecrets(url) }

    /// Seconds to wait before reconnect attempt `retry` (1, 2, …): 0.5 s doubling, at most 10 s.
    package static func backoff(retry: Int) -> Double {
        min(10, 0.5 * Double(1 << min(max(retry - 1, 0), 5)))
    }

    /// Whether this target's muxer carries a sound codec that servers pass on: FLV (RTMP) takes
    /// AAC and MP3; MPEG-TS (SRT) and RTP (RTSP) take Opus too.
    package func carries(sound codec: Codec) -> Bool {
        switch codec {
        case .aac, .mp3: true
        case .opus: kind != .rtmp
        case .h264, .hevc, .ffv1, .mjpeg, .vorbis, .ac3, .eac3, .flac, .pcmALaw, .pcmMuLaw, .other: false
        }
    }
}
