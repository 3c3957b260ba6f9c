import Testing
@testable import RecCore

/// Where pictures stop and come back (issue 42's shaded gaps, and a save's `missing_seconds`).
@Suite struct GapTrackerTests {
    static let frame = 1.0 / 30
    static func t(_ s: Double) -> Timestamp { Timestamp(seconds: s) }

    /// Pictures at 30 fps from `from` up to (not including) `to`.
    static func feed(_ tracker: inout GapTracker, from: Double, to: Double) -> [GapTracker.Gap] {
        var out: [GapTracker.Gap] = []
        var n = 0
        while from + Double(n) * frame < to - 1e-9 {
            if let gap = tracker.picture(at: t(from + Double(n) * frame)) { out.append(gap) }
            n += 1
        }
        return out
    }

    @Test func evenPicturesMakeNoGap() {
        var tracker = GapTracker(frameInterval: Self.frame)
        #expect(Self.feed(&tracker, from: 0, to: 10).isEmpty)
        #expect(tracker.gaps.isEmpty && tracker.current(at: Self.t(10.2)) == nil)
    }

    @Test func aSilenceLongerThanTheThresholdIsAGapFromTheLastPicturesEnd() throws {
        var tracker = GapTracker(frameInterval: Self.frame)
        _ = Self.feed(&tracker, from: 0, to: 3)
        // 0.9 s of silence is not a gap (the threshold is max(1 s, 3 frames)); 2.5 s is.
        #expect(tracker.picture(at: Self.t(3.9)) == nil)
        let ended = tracker.picture(at: Self.t(6.4))
        let gap = try #require(ended)
        #expect(abs(gap.start.seconds - (3.9 + Self.frame)) < 1e-6 && abs(gap.end.seconds - 6.4) < 1e-6)
        #expect(!gap.reported && gap.reason == "no pictures for 2.5 s (the source stalled)")
        #expect(tracker.gaps == [gap])
        #expect(abs((tracker.missingSeconds(in: Self.t(0)..<Self.t(10)) ?? 0) - gap.seconds) < 1e-6)
        #expect(tracker.missingSeconds(in: Self.t(7)..<Self.t(10)) == nil)
        #expect(tracker.missingSeconds(in: Self.t(0)..<Self.t(10), reportedOnly: true) == nil)
        #expect(tracker.gaps(in: Self.t(5)..<Self.t(5.1)) == [gap])
    }

    @Test func aSlowSourcesThresholdIsThreeFrames() {
        var tracker = GapTracker(frameInterval: 0.5)
        #expect(tracker.threshold == 1.5)
        for i in 0..<10 { #expect(tracker.picture(at: Self.t(Double(i) * 0.5)) == nil) }
        #expect(tracker.picture(at: Self.t(4.5 + 1.4)) == nil)
        #expect(tracker.picture(at: Self.t(5.9 + 1.6)) != nil)
    }

    @Test func aReportedOutageGivesItsReasonWhateverItsLength() throws {
        var tracker = GapTracker(frameInterval: Self.frame)
        _ = Self.feed(&tracker, from: 0, to: 3)
        let last = tracker.newest!.seconds
        tracker.sourceAway("rtsp://cam/ ended the stream")
        let under = try #require(tracker.current(at: Self.t(4)))
        #expect(under.reason == "rtsp://cam/ ended the stream" && abs(under.start.seconds - (last + Self.frame)) < 1e-6)
        #expect(under.end.seconds == 4)
        // A wall clock behind the source's timeline: the gap under way is there, from its start.
        #expect(tracker.current(at: Self.t(1))?.end == under.start)
        // Back after 0.5 s: shorter than the threshold, still a gap, with the source's reason.
        let ended = tracker.picture(at: Self.t(last + 0.5))
        let gap = try #require(ended)
        #expect(gap.reported && gap.reason == "rtsp://cam/ ended the stream")
        #expect(abs(gap.seconds - (0.5 - Self.frame)) < 1e-6)
        #expect(tracker.current(at: Self.t(last + 0.6)) == nil)
    }

    /// A network camera's last packet waits for its successor's time; on reconnecting it is
    /// handed out first. It moves the gap's start past it; an earlier time leaves it.
    @Test func aHeldPictureMovesTheGapsStartPastIt() throws {
        var tracker = GapTracker(frameInterval: Self.frame)
        _ = Self.feed(&tracker, from: 0, to: 3 + Self.frame / 2)
        #expect(abs(tracker.newest!.seconds - 3) < 1e-6)
        tracker.sourceAway("ended the stream")
        #expect(tracker.picture(at: Self.t(3 + Self.frame)) == nil)
        #expect(tracker.picture(at: Self.t(3)) == nil)
        let ended = tracker.picture(at: Self.t(6.25))
        let gap = try #require(ended)
        #expect(abs(gap.start.seconds - (3 + 2 * Self.frame)) < 1e-6 && abs(gap.end.seconds - 6.25) < 1e-6)
    }

    @Test func aPictureMoreThanHalfAFrameLateEndsAnOutage() throws {
        var tracker = GapTracker(frameInterval: Self.frame)
        _ = Self.feed(&tracker, from: 0, to: 3 + Self.frame / 2)
        tracker.sourceAway("ended the stream")
        let ended = tracker.picture(at: Self.t(3 + 1.6 * Self.frame))
        let gap = try #require(ended)
        #expect(gap.reported && abs(gap.seconds - 0.6 * Self.frame) < 1e-6)
    }

    @Test func nothingIsMissedBeforeTheFirstPicture() {
        var tracker = GapTracker(frameInterval: Self.frame)
        tracker.sourceAway("could not connect")
        #expect(tracker.current(at: Self.t(5)) == nil)
        #expect(tracker.picture(at: Self.t(5)) == nil && tracker.picture(at: Self.t(5 + Self.frame)) == nil)
        #expect(tracker.gaps.isEmpty)
    }

    @Test func anEndIsAGapUnderWayAndASilenceIsNot() throws {
        var tracker = GapTracker(frameInterval: Self.frame)
        _ = Self.feed(&tracker, from: 0, to: 2)
        let last = tracker.newest!.seconds
        #expect(tracker.current(at: Self.t(last + 5)) == nil)
        let ended = try #require(tracker.current(at: Self.t(last + 0.2), ended: "the camera failed"))
        #expect(ended.reason == "the camera failed" && abs(ended.start.seconds - (last + Self.frame)) < 1e-6)
        #expect(abs(ended.end.seconds - (last + 0.2)) < 1e-6)
    }

    @Test func onlyTheNewestGapsAreKept() {
        var tracker = GapTracker(frameInterval: 0, limit: 3)
        for i in 0..<6 { tracker.picture(at: Self.t(Double(i) * 2)) }
        #expect(tracker.gaps.map(\.end.seconds) == [6, 8, 10] && tracker.forgotten == 2)
    }

    /// A screen repeats a still picture once a second: with `shortest` 2.5, that is no gap.
    @Test func anUnevenSourcesRepeatsAreNoGap() {
        var tracker = GapTracker(frameInterval: 1.0 / 60, shortest: 2.5)
        for i in 0..<10 { #expect(tracker.picture(at: Self.t(Double(i) * 1.02)) == nil) }
    }
}
