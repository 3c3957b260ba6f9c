import Foundation
import Glibc

/// Moments as text through the C library (`localtime_r`, `gmtime_r`, `strftime`). Foundation's
/// date formatters reach into ICU, whose tables cost a session about 6 MB of resident memory for
/// the timestamps of its log and `session.json` (bench/README.md, core.sh).
package enum ISOTimeText {
    /// Local time with milliseconds and the zone's offset: "2026-12-02T09:41:07.250+01:00".
    package static func local(_ date: Date) -> String {
        let (seconds, millis) = wholeSeconds(date)
        guard let parts = broken(seconds, utc: false) else { return "\(date.timeIntervalSince1970)" }
        let minutes = abs(parts.tm_gmtoff) / 60
        return text(parts, "%Y-%m-%dT%H:%M:%S") + "." + pad(millis, 3) + (parts.tm_gmtoff < 0 ? "-" : "+")
            + pad(minutes / 60, 2) + ":" + pad(minutes % 60, 2)
    }

    /// Local time of day with milliseconds: "09:41:07.250".
    package static func localTimeOfDay(_ date: Date) -> String {
        let (seconds, millis) = wholeSeconds(date)
        guard let parts = broken(seconds, utc: false) else { return "\(date.timeIntervalSince1970)" }
        return text(parts, "%H:%M:%S") + "." + pad(millis, 3)
    }

    /// The whole seconds since the epoch and the milliseconds after them, from the nearest
    /// microsecond (a Double of this size holds 0.001 as 0.000999…).
    private static func wholeSeconds(_ date: Date) -> (seconds: Int64, millis: Int) {
        let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        let seconds = micros / 1_000_000 - (micros % 1_000_000 < 0 ? 1 : 0)
        return (seconds, Int((micros - seconds * 1_000_000) / 1000))
    }

    /// Local time to the second in a `strftime` format, e.g. "%Y%m%d-%H%M%S" for file names.
    package static func local(_ date: Date, format: String) -> String {
        guard let parts = broken(Int64(date.timeIntervalSince1970.rounded(.down)), utc: false) else {
            return "\(Int64(date.timeIntervalSince1970))"
        }
        return text(parts, format)
    }

    /// UTC to the second, "2026-12-02T09:41:07Z": what JSON's `.iso8601` date strategy reads.
    package static func utc(_ date: Date) -> String {
        guard let parts = broken(Int64(date.timeIntervalSince1970.rounded(.down)), utc: true) else {
            return "\(date.timeIntervalSince1970)"
        }
        return text(parts, "%Y-%m-%dT%H:%M:%SZ")
    }

    private static func broken(_ seconds: Int64, utc: Bool) -> tm? {
        var whole = time_t(seconds)
        var parts = tm()
        return (utc ? gmtime_r(&whole, &parts) : localtime_r(&whole, &parts)) == nil ? nil : parts
    }

    private static func text(_ parts: tm, _ format: String) -> String {
        var parts = parts
        var buffer = [CChar](repeating: 0, count: 128)
        let n = strftime(&buffer, buffer.count, format, &parts)
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
