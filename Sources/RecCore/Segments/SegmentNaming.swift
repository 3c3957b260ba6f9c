import Foundation

/// The file name of each segment, from `-o` and the wall-clock time the segment starts.
///
/// A file name with `%` fields is a pattern (OBS and gpu-screen-recorder style):
/// `cam-%Y-%m-%d_%H-%M-%S.mkv`. Any other name gets the start time before its extension:
/// `talk.mp4` → `talk-2026-12-01_14-03-05.mp4`. Fields are local time unless a time zone is given.
/// An existing file is never overwritten: the name then gets `-1`, `-2`, … before its extension.
package struct SegmentNaming: Sendable, Equatable {
    /// The path as given, with the fields still in it.
    package let pattern: String

    /// The fields a pattern may use, and what each becomes.
    package static let fields: [Character: String] = [
        "Y": "year, 4 digits", "y": "year, 2 digits", "m": "month 01-12", "d": "day 01-31",
        "H": "hour 00-23", "M": "minute 00-59", "S": "second 00-59", "j": "day of the year 001-366",
        "s": "seconds since 1970", "%": "a literal %",
    ]

    /// Checks the pattern: fields only in the file name, each one known.
    package init(path: String) throws(RecError) {
        let name = (path as NSString).lastPathComponent
        let folder = (path as NSString).deletingLastPathComponent
        if folder.contains("%") {
            throw .usage("\(path): time fields such as %Y work in the file name only, not in its folder")
        }
        if name.contains("%") {
            var chars = name.makeIterator()
            while let c = chars.next() {
                guard c == "%" else { continue }
                guard let f = chars.next(), Self.fields[f] != nil else {
                    let known = Self.fields.keys.sorted().map { "%\($0)" }.joined(separator: " ")
                    throw .usage("\(path) has an unknown time field; use \(known)")
                }
            }
            pattern = path
        } else {
            let ext = (name as NSString).pathExtension
            let stem = (path as NSString).deletingPathExtension
            pattern = stem + "-%Y-%m-%d_%H-%M-%S" + (ext.isEmpty ? "" : "." + ext)
        }
    }

    /// The name for a segment starting at `date`.
    package func expand(_ date: Date, timeZone: TimeZone = .current) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let dayOfYear = calendar.ordinality(of: .day, in: .year, for: date) ?? 1
        func two(_ v: Int?) -> String { String(format: "%02d", v ?? 0) }
        var out = ""
        var chars = pattern.makeIterator()
        while let ch = chars.next() {
            guard ch == "%", let f = chars.next() else {
                out.append(ch)
                continue
            }
            switch f {
            case "Y": out += String(format: "%04d", c.year ?? 0)
            case "y": out += two((c.year ?? 0) % 100)
            case "m": out += two(c.month)
            case "d": out += two(c.day)
            case "H": out += two(c.hour)
            case "M": out += two(c.minute)
            case "S": out += two(c.second)
            case "j": out += String(format: "%03d", dayOfYear)
            case "s": out += String(Int64(date.timeIntervalSince1970.rounded(.down)))
            default: out.append(f)
            }
        }
        return out
    }

    /// `path`, or the first of `stem-1.ext`, `stem-2.ext`, … for which `exists` is false.
    package static func unique(_ path: String, exists: (String) -> Bool) -> String {
        guard exists(path) else { return path }
        let ext = (path as NSString).pathExtension
        let stem = (path as NSString).deletingPathExtension
        var n = 1
        while true {
            let candidate = "\(stem)-\(n)" + (ext.isEmpty ? "" : "." + ext)
            if !exists(candidate) { return candidate }
            n += 1
        }
    }
}
