import Foundation
import Testing
@testable import RecCore

@Suite struct TimeParserTests {
    @Test(arguments: [
        ("12s", 12_000_000), ("1500ms", 1_500_000), ("250us", 250), ("1m30s", 90_000_000),
        ("1h2m", 3_720_000_000), ("1h", 3_600_000_000), ("1.5m", 90_000_000), ("2.25s", 2_250_000),
        ("1:30", 90_000_000), ("01:02:03.250", 3_723_250_000), ("0:00.5", 500_000),
        ("90.5", 90_500_000), ("0", 0), (" 7s ", 7_000_000), ("12S", 12_000_000), ("12", 12_000_000),
        ("0.0000005", 1), ("0.0000004", 0), ("1h0m0s1ms", 3_600_001_000), ("125:00", 7_500_000_000),
    ] as [(String, Int64)])
    func parsesDurations(text: String, microseconds: Int64) throws {
        #expect(try TimeParser.duration(text) == .microseconds(microseconds))
    }

    @Test(arguments: ["", "1:7x", "abc", "1:75", "1:5", "1:60:00", "s", "1s1m", "1m1m", "1.2.3s",
                      "-3s", "1::2", "1:30:", ":30", "99999999999999999999h", "1e3", "3x", "1.s"])
    func rejectsBadDurations(text: String) throws {
        let error = #expect(throws: RecError.self) { try TimeParser.duration(text) }
        #expect(error?.code == .usage)
        #expect(error?.message == "'\(text)' is not a time; use 12s, 1500ms, 1m30s, 1:30 or 01:02:03.250")
    }

    @Test func parsesPositions() throws {
        let utc = TimeZone(identifier: "UTC")!
        #expect(try TimeParser.position("now", timeZone: utc) == .now)
        #expect(try TimeParser.position("NOW", timeZone: utc) == .now)
        #expect(try TimeParser.position("-30s", timeZone: utc) == .fromEnd(.microseconds(30_000_000)))
        #expect(try TimeParser.position("+1:00", timeZone: utc) == .fromNow(.microseconds(60_000_000)))
        #expect(try TimeParser.position("1m", timeZone: utc) == .offset(.microseconds(60_000_000)))
    }

    @Test(arguments: [
        ("2026-11-29T14:03:05", "UTC", 1_795_960_985_000_000),
        ("2026-11-29T14:03:05Z", "Europe/Berlin", 1_795_960_985_000_000),
        ("2026-11-29T14:03:05.25Z", "UTC", 1_795_960_985_250_000),
        ("2026-11-29 14:03:05,5", "UTC", 1_795_960_985_500_000),
        ("2026-11-29T15:03:05+01:00", "UTC", 1_795_960_985_000_000),
        ("2026-11-29T09:03:05-0500", "UTC", 1_795_960_985_000_000),
        ("2026-11-29T15:03:05", "Europe/Berlin", 1_795_960_985_000_000),   // CET, +1
        ("2026-07-01T02:00:00", "Europe/Berlin", 1_782_864_000_000_000),   // CEST, +2
        ("2024-02-29T00:00:00Z", "UTC", 1_709_164_800_000_000),
        ("1970-01-01T00:00:00Z", "UTC", 0),
    ] as [(String, String, Int64)])
    func parsesWallClock(text: String, zone: String, epochMicroseconds: Int64) throws {
        let spec = try TimeParser.position(text, timeZone: TimeZone(identifier: zone)!)
        #expect(spec == .wallClock(.microseconds(epochMicroseconds)))
    }

    @Test(arguments: ["2026-13-01T00:00:00", "2026-02-29T00:00:00", "2026-11-29T24:00:00",
                      "2026-11-29T14:03", "2026-11-29T14:03:05Q", "2026-11-29T14:03:05+1:00",
                      "2026-11-29T14:03:05.", "2026-11-29X14:03:05"])
    func rejectsBadWallClock(text: String) throws {
        let error = #expect(throws: RecError.self) {
            try TimeParser.position(text, timeZone: TimeZone(identifier: "UTC")!)
        }
        #expect(error?.code == .usage)
        #expect(error?.message.contains("is not a wall-clock time") == true)
    }

    @Test func rejectsBadPositions() {
        let error = #expect(throws: RecError.self) { try TimeParser.position("-x") }
        #expect(error?.message.contains("now, +20s") == true)
    }

    @Test(arguments: [
        (0, "0:00.000"), (4 * 60_000_000 + 59_966_666, "4:59.966"), (3_723_250_000, "1:02:03.250"),
        (-1_500, "-0:00.002"), (59_999_999, "0:59.999"), (36_000_000_000, "10:00:00.000"),
    ] as [(Int64, String)])
    func formatsClockText(microseconds: Int64, text: String) {
        #expect(Timestamp.microseconds(microseconds).clockText == text)
    }

    @Test func formatsOtherTimeBases() {
        #expect(Timestamp(value: 9_000, timeBase: Rational(1, 30)).clockText == "5:00.000")
        #expect(Timestamp.rangeText(.zero, Timestamp(value: 8_999, timeBase: Rational(1, 30))) == "0:00.000–4:59.966")
    }
}
