import Foundation

/// The one time syntax every command accepts.
///
/// Durations and offsets: `12s`, `1500ms`, `250us`, `1m30s`, `1h2m`, `1.5m`, `1:30`,
/// `01:02:03.250`, `90.5` (seconds), `0`. Positions (for `rec save`) add `-30s` (before the
/// newest frame), `now`, `+20s` (after now) and ISO 8601 wall-clock times
/// `2026-11-29T14:03:05[.250][Z|+01:00]`. Results are exact to the microsecond; digits
/// beyond that are rounded.
package enum TimeParser {
    static let durationHint = "use 12s, 1500ms, 1m30s, 1:30 or 01:02:03.250"
    static let positionHint = "use 12s, 1:30, -30s (before the newest frame), now, +20s or 2026-11-29T14:03:05"

    /// Parses a duration or an offset from the start, e.g. for `--last` or `rec trim --from`.
    package static func duration(_ text: String) throws(RecError) -> Timestamp {
        guard let us = parseDuration(text.trimmingCharacters(in: .whitespaces).lowercased()) else {
            throw .usage("'\(text)' is not a time; \(durationHint)")
        }
        return .microseconds(us)
    }

    /// Parses a position for `rec save --from/--to`. A wall-clock time without a zone is read
    /// in `timeZone`.
    package static func position(_ text: String, timeZone: TimeZone = .current) throws(RecError) -> TimeSpec {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let lower = trimmed.lowercased()
        if lower == "now" { return .now }
        if let first = lower.first, first == "-" || first == "+" {
            guard let us = parseDuration(String(lower.dropFirst())) else {
                throw .usage("'\(text)' is not a time; \(positionHint)")
            }
            return first == "-" ? .fromEnd(.microseconds(us)) : .fromNow(.microseconds(us))
        }
        if looksLikeDate(lower) {
            guard let epoch = WallClockParser.epochMicroseconds(trimmed, timeZone: timeZone) else {
                throw .usage("'\(text)' is not a wall-clock time; use 2026-11-29T14:03:05, "
                    + "optionally with .250 and Z or +01:00")
            }
            return .wallClock(.microseconds(epoch))
        }
        guard let us = parseDuration(lower) else {
            throw .usage("'\(text)' is not a time; \(positionHint)")
        }
        return .offset(.microseconds(us))
    }

    /// `YYYY-MM-DD…`: four digits then a dash.
    private static func looksLikeDate(_ text: String) -> Bool {
        let chars = Array(text.prefix(5))
        return chars.count == 5 && chars[0..<4].allSatisfy(\.isTimeDigit) && chars[4] == "-"
    }

    /// Microseconds, or nil when `text` is not a duration.
    static func parseDuration(_ text: String) -> Int64? {
        if text.isEmpty { return nil }
        if text.contains(":") { return parseClock(text) }
        if let us = parseNumber(Substring(text), unit: 1_000_000) { return us }
        return parseUnits(text)
    }

    /// `m:ss[.fff]` or `h:mm:ss[.fff]`; fields after the first have two digits and are below 60.
    private static func parseClock(_ text: String) -> Int64? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3,
              let seconds = parseNumber(fields[fields.count - 1], unit: 1_000_000),
              fields[fields.count - 1].prefix(while: \.isTimeDigit).count == 2,
              seconds < 60_000_000 else { return nil }
        var total = seconds
        for (position, field) in fields.dropLast().reversed().enumerated() {
            let isFirst = position == fields.count - 2
            guard !field.isEmpty, field.allSatisfy(\.isTimeDigit),
                  isFirst || field.count == 2,
                  let value = Int64(field), isFirst || value < 60 else { return nil }
            let unit: Int64 = position == 0 ? 60_000_000 : 3_600_000_000
            guard let part = multiply(value, unit), let sum = add(total, part) else { return nil }
            total = sum
        }
        return total
    }

    /// `1h2m3.5s`, `1500ms`, `250us`: units in decreasing order, each at most once.
    private static func parseUnits(_ text: String) -> Int64? {
        let units: [(String, Int64)] = [("h", 3_600_000_000), ("ms", 1_000), ("us", 1), ("m", 60_000_000), ("s", 1_000_000)]
        let order = ["h": 0, "m": 1, "s": 2, "ms": 3, "us": 4]
        var rest = Substring(text)
        var total: Int64 = 0
        var lastRank = -1
        while !rest.isEmpty {
            let number = rest.prefix { $0.isTimeDigit || $0 == "." }
            rest = rest.dropFirst(number.count)
            guard let (name, scale) = units.first(where: { rest.hasPrefix($0.0) }),
                  let rank = order[name], rank > lastRank,
                  let value = parseNumber(number, unit: scale),
                  let sum = add(total, value) else { return nil }
            rest = rest.dropFirst(name.count)
            lastRank = rank
            total = sum
        }
        return total
    }

    /// `digits[.digits]` times `unit` microseconds, rounded to the nearest microsecond.
    static func parseNumber(_ text: Substring, unit: Int64) -> Int64? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isTimeDigit),
              let wholeValue = Int64(whole), let scaled = multiply(wholeValue, unit) else { return nil }
        guard parts.count == 2 else { return scaled }
        let fraction = parts[1]
        guard !fraction.isEmpty, fraction.allSatisfy(\.isTimeDigit) else { return nil }
        // fraction / 10^n * unit, exactly, using at most 12 digits (finer than a microsecond).
        var numerator: Int64 = 0
        var denominator: Int64 = 1
        // Each character is one ASCII digit (`isTimeDigit`), so one UTF-8 byte.
        for digit in fraction.utf8.prefix(12) {
            numerator = numerator * 10 + Int64(digit - UInt8(ascii: "0"))
            denominator *= 10
        }
        let product = numerator.multipliedFullWidth(by: unit)
        let (quotient, remainder) = denominator.dividingFullWidth(product)
        let rounded = quotient + (remainder * 2 >= denominator ? 1 : 0)
        return add(scaled, rounded)
    }

    private static func multiply(_ a: Int64, _ b: Int64) -> Int64? {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? nil : value
    }

    private static func add(_ a: Int64, _ b: Int64) -> Int64? {
        let (value, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : value
    }
}

extension Character {
    var isTimeDigit: Bool { isASCII && isNumber }
}
