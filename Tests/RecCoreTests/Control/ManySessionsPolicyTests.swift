import Foundation
import Testing
@testable import RecCore

/// The pure rules behind `rec save --session a,b,c` / `--all`: one wall-clock range for every
/// session, one clip name per session, the list of names, and what a session waits for.
@Suite struct ManySessionsPolicyTests {
    static func us(_ seconds: Double) -> Timestamp { Timestamp(seconds: seconds) }
    /// The moment of the command: 2025-11-29T14:03:05Z.
    static let now = Timestamp.microseconds(1_764_424_985_000_000)

    static func aligned(from: String? = nil, to: String? = nil, last: String? = nil) throws(RecError) -> WallClockRange {
        let utc = TimeZone(identifier: "UTC") ?? .current
        let selection: TimeSelection
        if let last { selection = .last(try TimeParser.duration(last)) } else {
            selection = TimeSelection(from: try from.map { t throws(RecError) in try TimeParser.position(t, timeZone: utc) },
                                      to: try to.map { t throws(RecError) in try TimeParser.position(t, timeZone: utc) })
        }
        return try WallClockRange.aligning(selection, now: now, fromText: last.map { "-" + $0 } ?? from, toText: to, timeZone: utc)
    }

    @Test func timesFromNowBecomeOneRangeAtTheCommand() throws {
        let n = Self.now.value
        #expect(try Self.aligned(last: "30s") == WallClockRange(from: .microseconds(n - 30_000_000), to: .microseconds(n)))
        #expect(try Self.aligned(from: "-20s") == WallClockRange(from: .microseconds(n - 20_000_000), to: .microseconds(n)))
        #expect(try Self.aligned(from: "-20s", to: "-5s")
                == WallClockRange(from: .microseconds(n - 20_000_000), to: .microseconds(n - 5_000_000)))
        #expect(try Self.aligned(from: "now", to: "+10s") == WallClockRange(from: .microseconds(n), to: .microseconds(n + 10_000_000)))
    }

    @Test func wallClockTimesStayTheInstantsTheyName() throws {
        let range = try Self.aligned(from: "2025-11-29T14:02:05.25Z", to: "2025-11-29T15:02:35+01:00")
        #expect(range.from.value == 1_764_424_925_250_000)
        #expect(range.to.value == 1_764_424_955_000_000)
        // Sent as Unix seconds, the microseconds come back exactly.
        #expect(Timestamp(seconds: range.unixSeconds.from) == range.from)
        #expect(Timestamp(seconds: range.unixSeconds.to) == range.to)
    }

    @Test(arguments: [("12s", nil), ("1:30", "2:00"), ("-20s", "3:05")] as [(String, String?)])
    func timesFromASessionsStartAreRefused(from: String, to: String?) {
        let error = #expect(throws: RecError.self) { try Self.aligned(from: from, to: to) }
        #expect(error?.code == .usage)
        #expect(error?.message.contains("counts from each session's own start") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("2026-11-29T14:03:05") == true)
    }

    /// Hours, minutes and seconds can only be a time of day with several sessions (issue 21's
    /// `--from 14:03:05`): today's, or yesterday's when today's is more than an hour ahead.
    @Test func hoursMinutesAndSecondsAreATimeOfDay() throws {
        let range = try Self.aligned(from: "14:02:35", to: "14:03:05")
        #expect(range == WallClockRange(from: .microseconds(Self.now.value - 30_000_000), to: Self.now))
        let late = try Self.aligned(from: "23:59:00", to: "23:59:30")
        #expect(late.from.value == Self.now.value - (14 * 3600 + 3 * 60 + 5 + 60) * 1_000_000)
        let soon = try Self.aligned(from: "14:30:00", to: "14:31:00")
        #expect(soon.from.value == Self.now.value + (26 * 60 + 55) * 1_000_000)
    }

    @Test func aMissingStartOrAnEmptyRangeIsRefused() {
        let noStart = #expect(throws: RecError.self) { try Self.aligned(to: "-5s") }
        #expect(noStart?.message.contains("give --from as well as --to") == true)
        let reversed = #expect(throws: RecError.self) { try Self.aligned(from: "-5s", to: "-20s") }
        #expect(reversed?.message.contains("--from must come before --to") == true)
        #expect(throws: RecError.self) { try Self.aligned(last: "0s") }
    }

    @Test func clipsAreNamedFromAFolderOrAPattern() throws {
        #expect(try ClipNaming(output: "clips/", isFolder: false).path(for: "door") == "clips/door.mp4")
        #expect(try ClipNaming(output: "/tmp/clips", isFolder: true).path(for: "yard") == "/tmp/clips/yard.mp4")
        #expect(try ClipNaming(output: "clip-%s.mkv", isFolder: false).path(for: "cam.2") == "clip-cam.2.mkv")
        #expect(try ClipNaming(output: "%s/%s-x.mp4", isFolder: false).path(for: "a") == "a/a-x.mp4")
        #expect(ClipNaming.suffixed("clip-20261129-140305.mp4").path(for: "door") == "clip-20261129-140305-door.mp4")
        #expect(ClipNaming.suffixed("/v.d/rec").path(for: "door") == "/v.d/rec-door")
    }

    @Test(arguments: ["clip.mp4", "clips", "clip-%d.mp4"])
    func oneFileForSeveralSessionsIsRefused(output: String) {
        let error = #expect(throws: RecError.self) { try ClipNaming(output: output, isFolder: false) }
        #expect(error?.code == .usage)
        #expect(error?.message.contains("-o clips/") == true && error?.message.contains("%s") == true)
    }

    @Test func sessionListsAreCheckedNameByName() throws {
        #expect(try SessionName.list("a,b,c") == ["a", "b", "c"])
        #expect(try SessionName.list("door, yard") == ["door", "yard"])
        #expect(try SessionName.list("one") == ["one"])
        for bad in ["a,,b", "a,", ",a", "a,a", "a,b/c"] {
            let error = #expect(throws: RecError.self) { try SessionName.list(bad) }
            #expect(error?.code == .usage, "\(bad)")
        }
    }

    /// A live session waits for a wall-clock end it does not hold yet, as for `+20s`; a file
    /// never does.
    @Test func aWallClockEndAheadOfTheNewestFrameIsWaitedFor() throws {
        let live = Timeline(availableStart: Self.us(100), availableEnd: Self.us(400), now: Self.us(400),
                            wallClockAtZero: Self.us(1_000))
        let ahead = TimeSelection(from: .wallClock(Self.us(1_395)), to: .wallClock(Self.us(1_400.02)))
        #expect(try ahead.resolve(on: live) == Self.us(395)..<Self.us(400.02))
        var file = live
        file.now = nil
        #expect(throws: RecError.self) { try ahead.resolve(on: file) }
        // The start must still be held.
        #expect(throws: RecError.self) { try TimeSelection(from: .wallClock(Self.us(1_050)), to: .wallClock(Self.us(1_200))).resolve(on: live) }
    }

    @Test(arguments: [
        ("rtsp://admin:secret@10.0.0.5:554/live?transport=udp", "rtsp://10.0.0.5:554/live"),
        ("rtsp://u:p@ss/w@cam/live", "rtsp://cam/live"),
        ("srt://host:9000?passphrase=xyz", "srt://host:9000"),
        ("/dev/video0", "/dev/video0"), ("file:/tmp/a?b.mp4", "file:/tmp/a?b.mp4"), ("test", "test"),
    ])
    func urlsLoseTheirSecrets(url: String, shown: String) {
        #expect(URLText.withoutSecrets(url) == shown)
    }
}
