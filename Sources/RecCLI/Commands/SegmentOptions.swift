import Foundation
import Media
import RecClient
import RecCore
import Session

/// `--segment`, `--keep` and `--max-disk`, shared by `rec record` and `rec start`.
struct SegmentOptions: Sendable, Equatable {
    static let arguments: [ArgumentSpec] = [
        .segment, .keep, .maxDisk,
    ]

    var segment: String?
    var keep: String?
    var maxDisk: String?

    init(_ values: ParsedValues) throws(RecError) {
        segment = try values.value(.segment)
        keep = try values.value(.keep)
        maxDisk = try values.value(.maxDisk)
    }

    /// The settings, or nil without `--segment`; usage errors for values out of range.
    func settings() throws(RecError) -> SegmentSettings? {
        try SegmentSettings.parse(segment: segment, keep: keep, maxDisk: maxDisk)
    }

    /// The options again, for a detached session's own command line.
    var arguments: [String] {
        [(ArgumentSpec.segment, segment), (.keep, keep), (.maxDisk, maxDisk)].flatMap { spec, value in
            value.map { [spec.displayName, $0] } ?? []
        }
    }

    /// The output for `path`: segments named from it, or the one file, which must not exist.
    func output(path: String, container: ContainerFormat, force: Bool) throws(RecError) -> RecorderConfiguration.Output {
        guard let settings = try settings() else {
            try OutputPath.checkWritable(path, force: force)
            return .init(path: path, container: container)
        }
        // Segments never overwrite (a taken name gets -1, -2, …); only the folder must exist.
        let naming = try SegmentNaming(path: path)
        try OutputPath.checkWritable(SegmentNaming.unique(naming.expand(.now)) { FileManager.default.fileExists(atPath: $0) },
                                     force: false)
        return .init(path: path, container: container, segments: settings)
    }
}

extension ArgumentSpec {
    static let keep = option("keep", value: "time", help: "With --segment, delete this recording's segments older than this, such as 7d.")
    static let maxDisk = option(
        "max-disk", value: "bytes",
        help: "With --segment, delete this recording's oldest segments while all take more than this, such as 50G."
    )
}
