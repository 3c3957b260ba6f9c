import RecCore

/// The containers rec writes, with what each can do.
public enum ContainerFormat: String, Sendable, CaseIterable {
    case mp4, mov, mkv, webm

    /// From a file name's extension ("clip.MP4" → .mp4); nil for anything else.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        let ext = path[path.index(after: dot)...].lowercased()
        switch ext {
        case "mp4", "m4v": self = .mp4
        case "mov": self = .mov
        case "mkv": self = .mkv
        case "webm": self = .webm
        default: return nil
        }
    }

    /// libavformat's muxer name.
    public var muxerName: String {
        switch self {
        case .mp4: "mp4"
        case .mov: "mov"
        case .mkv: "matroska"
        case .webm: "webm"
        }
    }

    /// MP4 and MOV have edit lists, so a cut can hide its preroll without re-encoding.
    public var hasEditLists: Bool { self == .mp4 || self == .mov }

    /// The options that make a recording survive SIGKILL: MP4/MOV as fragments, one per keyframe,
    /// each complete on disk before the next begins; Matroska with clusters of at most a second.
    public var crashSafeOptions: [String: String] {
        switch self {
        case .mp4, .mov: ["movflags": "frag_keyframe+empty_moov+default_base_moof"]
        case .mkv, .webm: ["cluster_time_limit": "1000", "cluster_size_limit": "4194304"]
        }
    }
}

extension ContainerFormat {
    /// Whether this container can hold a stream of `codec` (FFmpeg's codec name) copied as it is.
    public func canHold(codec: String) -> Bool {
        switch self {
        case .webm: ["vp8", "vp9", "av1"].contains(codec)
        case .mp4: ["h264", "hevc", "av1", "vp9", "mjpeg", "mpeg4"].contains(codec)
        case .mov: ["h264", "hevc", "mjpeg", "prores", "mpeg4", "av1"].contains(codec)
        case .mkv: true
        }
    }

    /// Throws a usage error, with what to do instead, if this container cannot hold `codec`.
    public func check(codec: String) throws(RecError) {
        guard canHold(codec: codec) else {
            throw .usage("a .\(rawValue) file cannot hold \(codec) video; write the clip as .mkv (it holds any codec)")
        }
    }
}
