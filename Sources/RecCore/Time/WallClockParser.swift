import Foundation

/// ISO 8601 wall-clock times for `rec save --from/--to`:
/// `YYYY-MM-DDTHH:MM:SS[.fraction][Z|±HH:MM|±HHMM]` (a space may replace the `T`). Without a zone
/// the time is read in the given `TimeZone`.
enum WallClockParser {
    /// Microseconds since 1970-01-01T00:00:00Z, or nil when `text` is not such a time.
    static func epochMicroseconds(_ text: String, timeZone: TimeZone) -> Int64? {
        let chars = Array(text)
        guard chars.count >= 19, chars[10] == "T" || chars[10] == "t" || chars[10] == " ",
              chars[4] == "-", chars[7] == "-", chars[13] == ":", chars[16] == ":",
              let year = number(chars, 0, 4), let month = number(chars, 5, 2), let day = number(chars, 8, 2),
              let hour = number(chars, 11, 2), let minute = number(chars, 14, 2),
              let second = number(chars, 17, 2),
              (1...12).contains(month), (1...daysIn(month, year)).contains(day),
              hour < 24, minute < 60, second < 60 else { return nil }
        var index = 19
        var fractionUs: Int64 = 0
        if index < chars.count, chars[index] == "." || chars[index] == "," {
            let digits = chars[(index + 1)...].prefix(while: \.isTimeDigit)
            guard !digits.isEmpty,
                  let us = TimeParser.parseNumber(Substring("0." + String(digits)), unit: 1_000_000)
            else { return nil }
            fractionUs = us
            index += 1 + digits.count
        }
        let localSeconds = daysFromCivil(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second
        let offsetSeconds: Int64
        if index == chars.count {
            offsetSeconds = localOffset(localSeconds, timeZone)
        } else if let zone = zoneOffset(chars[index...]) {
            offsetSeconds = zone
        } else {
            return nil
        }
        return (localSeconds - offsetSeconds) * 1_000_000 + fractionUs
    }

    /// `Z`, `±HH:MM`, `±HHMM` or `±HH` as seconds east of UTC.
    private static func zoneOffset(_ zone: ArraySlice<Character>) -> Int64? {
        let chars = Array(zone)
        if chars == ["Z"] || chars == ["z"] { return 0 }
        guard let sign = chars.first, sign == "+" || sign == "-" else { return nil }
        let digits = chars.dropFirst().filter { $0 != ":" }
        guard digits.count == 2 || digits.count == 4, digits.allSatisfy(\.isTimeDigit),
              chars.count == 1 + digits.count || (chars.count == 6 && chars[3] == ":"),
              let hours = number(digits, 0, 2), hours <= 23 else { return nil }
        let minutes = digits.count == 4 ? number(digits, 2, 2) ?? 60 : 0
        guard minutes < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3_600 + minutes * 60)
    }

    /// The zone's offset at a local time: look up the offset at the instant the local time would
    /// be in UTC, then once more at the corrected instant (right except inside a DST gap).
    private static func localOffset(_ localSeconds: Int64, _ timeZone: TimeZone) -> Int64 {
        let guess = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(localSeconds))))
        let corrected = Date(timeIntervalSince1970: Double(localSeconds - guess))
        return Int64(timeZone.secondsFromGMT(for: corrected))
    }

    private static func number(_ chars: [Character], _ start: Int, _ count: Int) -> Int64? {
        let slice = chars[start..<(start + count)]
        guard slice.allSatisfy(\.isTimeDigit) else { return nil }
        return Int64(String(slice))
    }

    private static func daysIn(_ month: Int64, _ year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    private static func daysFromCivil(_ year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
