import Foundation
import RecCore

/// The `--from`, `--to` and `--last` of `rec trim` and `rec save`, as given.
/// Kept as given; `selection()` parses them with RecCore's time parser.
package struct ClipRange: Sendable, Equatable {
    package var from: String?
    package var to: String?
    package var last: String?

    package init(_ values: ParsedValues) throws(RecError) {
        from = try values.value(.from)
        to = try values.value(.to)
        last = try values.value(.last)
    }

    /// The parsed selection; `-30s` counts back from the end, `now` and `+T` only in sessions.
    package func selection(timeZone: TimeZone = .current) throws(RecError) -> TimeSelection {
        if let last { return .last(try TimeParser.duration(last)) }
        return TimeSelection(from: try from.map { t throws(RecError) in try TimeParser.position(t, timeZone: timeZone) },
                             to: try to.map { t throws(RecError) in try TimeParser.position(t, timeZone: timeZone) })
    }

    /// `--last` says where the clip starts and ends, so it excludes `--from` and `--to`.
    package func validate() throws(RecError) {
        if last != nil, from != nil || to != nil {
            throw .usage("--last cannot be combined with --from or --to; give either --last or --from and --to")
        }
    }
}

extension ClipRange {
    /// The one wall-clock range a save from several sessions sends to each, with `-20s`, `now`,
    /// `+20s` and `--last` counted from `now` (microseconds since the epoch).
    package func aligned(now: Timestamp, timeZone: TimeZone = .current) throws(RecError) -> WallClockRange {
        try WallClockRange.aligning(selection(timeZone: timeZone), now: now, fromText: last.map { "-" + $0 } ?? from, toText: to,
                                    timeZone: timeZone)
    }
}
