import Foundation

/// How a long recording is cut into files and how many of them are kept: `--segment`, `--keep`
/// and `--max-disk`, parsed and range-checked.
package struct SegmentSettings: Sendable, Equatable {
    /// A new file starts at the first keyframe at or after each multiple of this on the session
    /// timeline.
    package var length: Timestamp
    /// Segments that ended longer ago than this are deleted.
    package var keep: Timestamp?
    /// The oldest segments are deleted while all of them together take more bytes than this.
    package var maxBytes: Int64?

    package init(length: Timestamp, keep: Timestamp? = nil, maxBytes: Int64? = nil) {
        self.length = length
        self.keep = keep
        self.maxBytes = maxBytes
    }

    package static let shortestLength = Timestamp(seconds: 1)
    package static let longestLength = Timestamp(seconds: 30 * 86_400)
    package static let longestKeep = Timestamp(seconds: 10 * 365 * 86_400)

    /// The settings for the options as given, or nil without `--segment`.
    package static func parse(segment: String?, keep: String?, maxDisk: String?) throws(RecError) -> SegmentSettings? {
        guard let segment else {
            if keep != nil || maxDisk != nil {
                throw .usage("--keep and --max-disk delete old segments, so they need --segment, e.g. --segment 1h --keep 7d")
            }
            return nil
        }
        let length = try parseLength(segment, option: "--segment")
        guard length >= shortestLength, length <= longestLength else {
            throw .usage("--segment \(segment) is out of range; give from 1s to 30d, e.g. --segment 1h")
        }
        var settings = SegmentSettings(length: length)
        if let keep {
            let age = try parseLength(keep, option: "--keep")
            guard age >= shortestLength, age <= longestKeep else {
                throw .usage("--keep \(keep) is out of range; give from 1s to 3650d, e.g. --keep 7d")
            }
            settings.keep = age
        }
        if let maxDisk {
            settings.maxBytes = Int64(try ByteSize.parse(maxDisk))
        }
        return settings
    }

    /// A length of time as `TimeParser.duration` reads it, or whole or decimal days and weeks
    /// (`7d`, `1.5d`, `2w`), which long recordings need.
    package static func parseLength(_ text: String, option: String) throws(RecError) -> Timestamp {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        let days: [Character: Int64] = ["d": 86_400_000_000, "w": 7 * 86_400_000_000]
        if let unit = t.last, let scale = days[unit] {
            guard let us = TimeParser.parseNumber(t.dropLast(), unit: scale) else {
                throw .usage("\(option) \(text) is not a length of time; write it like 30s, 1h, 7d or 2w")
            }
            return .microseconds(us)
        }
        guard let us = TimeParser.parseDuration(t) else {
            throw .usage("\(option) \(text) is not a length of time; write it like 30s, 1h, 7d or 2w")
        }
        return .microseconds(us)
    }

    /// The first multiple of the segment length after `start`: boundaries sit at fixed points of
    /// the session timeline, so a late keyframe shortens the next segment instead of shifting all.
    package func boundary(after start: Timestamp) -> Timestamp {
        let length = self.length.rescaled(to: .microseconds).value
        let s = start.rescaled(to: .microseconds).value
        let q = s / length - (s % length != 0 && s < 0 ? 1 : 0)
        return .microseconds((q + 1) * length)
    }
}
