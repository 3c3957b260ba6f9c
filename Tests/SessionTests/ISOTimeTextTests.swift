import Foundation
import SessionControl
import Testing
import TestPool

/// The log's and `session.json`'s times, written by the C library instead of Foundation's ICU
/// formatter, read back as Foundation reads ISO 8601.
@Suite(.blocking) struct ISOTimeTextTests {
    @Test func utcIsWhatJSONsISO8601StrategyReads() throws {
        let date = Date(timeIntervalSince1970: 1_796_204_467.75)
        #expect(ISOTimeText.utc(date) == "2026-12-02T09:41:07Z")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let back = try decoder.decode([Date].self, from: Data("[\"\(ISOTimeText.utc(date))\"]".utf8))
        #expect(back == [Date(timeIntervalSince1970: 1_796_204_467)])
    }

    @Test(arguments: [0.0, 0.001, 0.25, 0.999])
    func localTimeHasMillisecondsAndTheZonesOffset(fraction: Double) throws {
        let date = Date(timeIntervalSince1970: 1_796_204_467 + fraction)
        let text = ISOTimeText.local(date)
        #expect(text.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$"#, options: .regularExpression) != nil, "\(text)")
        let reader = ISO8601DateFormatter()
        reader.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let back = try #require(reader.date(from: text), "\(text)")
        #expect(abs(back.timeIntervalSince1970 - (1_796_204_467 + (fraction * 1000).rounded(.down) / 1000)) < 0.0005, "\(text)")
    }

    /// Default file names: "rec-20261202-094107.mkv" in local time.
    @Test func fileNameTimeIsLocalToTheSecond() {
        let date = Date(timeIntervalSince1970: 1_796_204_467.75)
        let name = ISOTimeText.local(date, format: "%Y%m%d-%H%M%S")
        #expect(name.range(of: #"^\d{8}-\d{6}$"#, options: .regularExpression) != nil, "\(name)")
        #expect(ISOTimeText.local(date).hasPrefix(String(name.prefix(4)) + "-" + String(name.dropFirst(4).prefix(2))))
    }
}
