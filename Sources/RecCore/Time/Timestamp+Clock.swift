extension Timestamp {
    /// This time as `m:ss.fff`, or `h:mm:ss.fff` from one hour on, for messages and reports.
    /// Milliseconds are rounded down, so the end of a range is never overstated.
    package var clockText: String {
        let us = rescaled(to: .microseconds).value
        let negative = us < 0
        let totalMs = us.magnitude / 1_000 // floor of the magnitude
        var ms = negative && us.magnitude % 1_000 != 0 ? totalMs + 1 : totalMs
        let millis = ms % 1_000
        ms /= 1_000
        let seconds = ms % 60
        let minutes = (ms / 60) % 60
        let hours = ms / 3_600
        var text = negative ? "-" : ""
        if hours > 0 {
            text += "\(hours):" + Self.pad(minutes, 2)
        } else {
            text += "\(minutes)"
        }
        text += ":" + Self.pad(seconds, 2) + "." + Self.pad(millis, 3)
        return text
    }

    /// `start–end` as clock texts, e.g. `0:00.000–4:59.966`.
    package static func rangeText(_ start: Timestamp, _ end: Timestamp) -> String {
        "\(start.clockText)–\(end.clockText)"
    }

    private static func pad(_ value: UInt64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
