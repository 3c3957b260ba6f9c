import Foundation
import RecCore
import Testing

/// `--segment`, `--keep`, `--max-disk`: parsing, boundaries, names and retention, with no files.
@Suite struct SegmentPolicyTests {
    static let utc = TimeZone(identifier: "UTC")!
    /// 2026-12-01 14:03:05 UTC.
    static let date = Date(timeIntervalSince1970: 1_796_133_785)

    @Test(arguments: [("1h", 3600.0), ("1s", 1), ("90m", 5400), ("1:30", 90), ("7d", 604_800), ("1.5d", 129_600),
                      ("2w", 1_209_600), ("30d", 2_592_000)])
    func segmentLengths(text: String, seconds: Double) throws {
        let s = try #require(try SegmentSettings.parse(segment: text, keep: nil, maxDisk: nil))
        #expect(s.length == Timestamp(seconds: seconds))
    }

    @Test(arguments: ["0s", "0", "500ms", "31d", "-1h", "1x", "d", "h", ""])
    func badSegmentLengthsAreUsageErrors(text: String) {
        #expect(throws: RecError.self) { try SegmentSettings.parse(segment: text, keep: nil, maxDisk: nil) }
    }

    @Test func keepAndMaxDisk() throws {
        let s = try #require(try SegmentSettings.parse(segment: "1h", keep: "7d", maxDisk: "50G"))
        #expect(s.keep == Timestamp(seconds: 604_800))
        #expect(s.maxBytes == Int64(50) << 30)
        #expect(throws: RecError.self) { try SegmentSettings.parse(segment: "1h", keep: "0s", maxDisk: nil) }
        #expect(throws: RecError.self) { try SegmentSettings.parse(segment: "1h", keep: "4000d", maxDisk: nil) }
        #expect(throws: RecError.self) { try SegmentSettings.parse(segment: "1h", keep: nil, maxDisk: "0") }
        #expect(throws: RecError.self) { try SegmentSettings.parse(segment: nil, keep: "7d", maxDisk: nil) }
        #expect(try SegmentSettings.parse(segment: nil, keep: nil, maxDisk: nil) == nil)
    }

    @Test func boundariesSitOnMultiplesOfTheLength() {
        let s = SegmentSettings(length: Timestamp(seconds: 2))
        #expect(s.boundary(after: .zero) == Timestamp(seconds: 2))
        #expect(s.boundary(after: Timestamp(seconds: 1.9)) == Timestamp(seconds: 2))
        #expect(s.boundary(after: Timestamp(seconds: 2)) == Timestamp(seconds: 4))
        // A segment that began late (its keyframe was after the boundary) still ends at the next one.
        #expect(s.boundary(after: Timestamp(seconds: 2.5)) == Timestamp(seconds: 4))
        #expect(s.boundary(after: Timestamp(value: 180_000, timeBase: Rational(1, 90_000))) == Timestamp(seconds: 4))
    }

    @Test func theFirstKeyframeAtOrAfterTheBoundaryStartsASegment() {
        var list = SegmentList(settings: SegmentSettings(length: Timestamp(seconds: 2)))
        #expect(!list.startsSegment(keyframeAt: Timestamp(seconds: 5)))  // nothing begun yet
        list.begin(path: "a", start: .zero, date: Self.date)
        #expect(!list.startsSegment(keyframeAt: Timestamp(seconds: 1.999)))
        #expect(list.startsSegment(keyframeAt: Timestamp(seconds: 2)))
        #expect(list.startsSegment(keyframeAt: Timestamp(seconds: 2.4)))
        list.begin(path: "b", start: Timestamp(seconds: 2.4), date: Self.date.addingTimeInterval(2.4))
        #expect(!list.startsSegment(keyframeAt: Timestamp(seconds: 3.9)))
        #expect(list.startsSegment(keyframeAt: Timestamp(seconds: 4)))
        #expect(list.records.map(\.state) == [.finishing, .writing])
        #expect(list.records[0].end == Timestamp(seconds: 2.4))
    }

    @Test(arguments: [
        ("/v/talk.mp4", "/v/talk-2026-12-01_14-03-05.mp4"),
        ("talk", "talk-2026-12-01_14-03-05"),
        ("/v/cam-%Y-%m-%d_%H-%M-%S.mkv", "/v/cam-2026-12-01_14-03-05.mkv"),
        ("%y%m%d-%j-%s-100%%.webm", "261201-335-1796133785-100%.webm"),
        ("/my.dir/a.b.mov", "/my.dir/a.b-2026-12-01_14-03-05.mov"),
    ])
    func names(path: String, expected: String) throws {
        #expect(try SegmentNaming(path: path).expand(Self.date, timeZone: Self.utc) == expected)
    }

    @Test(arguments: ["cam-%Q.mkv", "cam-%.mkv", "/tmp/%Y/cam.mkv"])
    func badPatternsAreUsageErrors(path: String) {
        #expect(throws: RecError.self) { try SegmentNaming(path: path) }
    }

    @Test func takenNamesGetANumber() {
        let taken: Set = ["/v/a.mp4", "/v/a-1.mp4", "/v/b"]
        #expect(SegmentNaming.unique("/v/a.mp4") { taken.contains($0) } == "/v/a-2.mp4")
        #expect(SegmentNaming.unique("/v/b") { taken.contains($0) } == "/v/b-1")
        #expect(SegmentNaming.unique("/v/c.mp4") { taken.contains($0) } == "/v/c.mp4")
    }

    /// Four finished one-hour segments of 10 bytes, then the one being written (5 bytes).
    static func list(keep: Double? = nil, maxBytes: Int64? = nil) -> SegmentList {
        var list = SegmentList(settings: SegmentSettings(length: Timestamp(seconds: 3600),
                                                         keep: keep.map { Timestamp(seconds: $0) }, maxBytes: maxBytes))
        for i in 0..<5 {
            list.begin(path: "s\(i)", start: Timestamp(seconds: Double(i) * 3600), date: date.addingTimeInterval(Double(i) * 3600))
        }
        for i in 0..<4 { list.finished(path: "s\(i)", bytes: 10) }
        list.updateCurrent(bytes: 5)
        return list
    }

    @Test func keepDeletesSegmentsThatEndedTooLongAgo() {
        let now = Self.date.addingTimeInterval(4 * 3600 + 60)  // a minute into s4
        // s0 ended 3 h 1 min ago, s1 2 h 1 min, s2 1 h 1 min, s3 1 min.
        #expect(Self.list(keep: 7200).expired(now: now) == ["s0", "s1"])
        #expect(Self.list(keep: 30).expired(now: now) == ["s0", "s1", "s2", "s3"])
        #expect(Self.list(keep: 86_400).expired(now: now).isEmpty)
    }

    @Test func maxDiskDeletesTheOldestUntilTheTotalFits() {
        let now = Self.date
        #expect(Self.list(maxBytes: 45).expired(now: now).isEmpty)          // 4 × 10 + 5
        #expect(Self.list(maxBytes: 44).expired(now: now) == ["s0"])
        #expect(Self.list(maxBytes: 25).expired(now: now) == ["s0", "s1"])
        // Never the one being written, even when it alone is too big.
        #expect(Self.list(maxBytes: 1).expired(now: now) == ["s0", "s1", "s2", "s3"])
        #expect(Self.list(keep: 7200, maxBytes: 20).expired(now: Self.date.addingTimeInterval(4 * 3600 + 60))
                == ["s0", "s1", "s2"])
    }

    @Test func segmentsStillBeingFinishedAreNeverDeleted() {
        var list = Self.list(maxBytes: 1)
        list.begin(path: "s5", start: Timestamp(seconds: 5 * 3600), date: Self.date)
        #expect(list.records[4].state == .finishing)
        #expect(list.expired(now: Self.date) == ["s0", "s1", "s2", "s3"])
        list.remove(paths: ["s0", "s1"])
        #expect(list.start == Timestamp(seconds: 7200))
    }

    @Test func coveringFindsEverySegmentARangeTouches() {
        let list = Self.list()
        func paths(_ a: Double, _ b: Double) -> [String] {
            list.covering(Timestamp(seconds: a)..<Timestamp(seconds: b)).map(\.path)
        }
        #expect(paths(10, 20) == ["s0"])
        #expect(paths(3500, 3700) == ["s0", "s1"])
        #expect(paths(3600, 3700) == ["s1"])
        #expect(paths(100, 4 * 3600 + 1) == ["s0", "s1", "s2", "s3", "s4"])
        #expect(paths(99_999, 100_000) == ["s4"])
    }
}
