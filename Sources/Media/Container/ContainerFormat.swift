import RecCore

/// The containers rec writes: the presets' `Container` (RecCore), with what writing needs.
package typealias ContainerFormat = Container

extension Container {
    /// MP4 and MOV have edit lists, so a cut can hide its preroll without re-encoding.
    package var hasEditLists: Bool { self == .mp4 || self == .mov }

    /// The options that make a recording survive SIGKILL: MP4/MOV as fragments (`empty_moov`: the
    /// header holds no samples), Matroska as clusters, each ended at a keyframe or once it holds
    /// `fragment` of video (`FragmentClock.defaultLength` unless a copy says otherwise);
    /// `AssetWriter` pushes each to the OS as it ends.
    package var crashSafeOptions: [String: String] { crashSafeOptions(fragment: FragmentClock.defaultLength) }

    package func crashSafeOptions(fragment: Timestamp) -> [String: String] {
        let length = fragment.rescaled(to: .microseconds).value
        return switch self {
        case .mp4, .mov: ["movflags": "frag_keyframe+empty_moov+default_base_moof", "frag_duration": "\(length)"]
        case .mkv, .webm: ["cluster_time_limit": "\(length / 1000)", "cluster_size_limit": "4194304"]
        }
    }

    /// The sample entries rec writes where the container has a choice: H.265 in MP4 and MOV as
    /// `hvc1` (parameter sets in the sample entry), which Safari, Chromium and QuickTime play;
    /// FFmpeg's default `hev1` they refuse or ignore.
    package var preferredTags: [Codec: String] {
        hasEditLists ? [.hevc: "hvc1"] : [:]
    }

    /// Throws a usage error, with what to do instead, if this container cannot hold `codec`.
    package func check(codec: String) throws(RecError) {
        guard holds(codec) else {
            let fits = Container.holding(codec).map { ".\($0.rawValue)" }.joined(separator: ", ")
            throw RecError.usage("a .\(rawValue) file cannot hold \(codec) video; write it as \(fits.isEmpty ? ".mkv" : fits)").because(.unsupported)
        }
    }
}
