import Testing
@testable import RecCore

/// The policy around issue 40's detector: which pictures are analysed, how events start and end,
/// which clips `--on-motion save` makes, and the index lines.
@Suite struct MotionPolicyTests {
    @Test func theCadenceTakesFiveAPictureASecondOnAFixedGrid() {
        func taken(fps: Double, seconds: Double = 2) -> [Double] {
            var cadence = MotionCadence()
            return (0..<Int(seconds * fps)).map { Double($0) / fps }.filter { cadence.takes($0) }
        }
        #expect(taken(fps: 30).map { ($0 * 1000).rounded() } == [0, 200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800])
        #expect(taken(fps: 5).count == 10)
        #expect(taken(fps: 2).count == 4)
        #expect(taken(fps: 7).count == 10)
        // An outage: the grid starts again where the pictures come back.
        var cadence = MotionCadence()
        #expect(cadence.takes(1.0) && !cadence.takes(1.1) && cadence.takes(1.2))
        #expect(cadence.takes(30.05) && !cadence.takes(30.1) && cadence.takes(30.2))
        // A new timeline that starts again at 0.
        #expect(cadence.takes(0) && !cadence.takes(0.1))
    }

    static let moving = MotionSample(level: 0.05, areas: [MotionRect(x: 0.125, y: 0.25, width: 0.125, height: 0.125)], lighting: false)

    @Test func anEventNeedsTwoMovingPicturesAndEndsAfterTwoQuietSeconds() {
        var tracker = MotionTracker()
        #expect(tracker.take(Self.moving, at: 1.0).isEmpty)
        #expect(tracker.take(.still, at: 1.2).isEmpty, "one moving picture is a flicker")
        #expect(tracker.take(Self.moving, at: 2.0).isEmpty)
        let started = tracker.take(Self.moving, at: 2.2)
        #expect(started == [.started(MotionEvent(id: 1, start: 2.0, end: 2.2, peak: 0.05, peakAt: 2.0, box: Self.moving.areas[0]))])
        var bigger = Self.moving
        bigger.level = 0.2
        bigger.areas = [MotionRect(x: 0.5, y: 0.5, width: 0.25, height: 0.25)]
        #expect(tracker.take(bigger, at: 3.0).isEmpty && tracker.isMoving)
        #expect(tracker.take(.still, at: 4.8).isEmpty)
        let ended = tracker.take(.still, at: 5.0)
        let event = MotionEvent(id: 1, start: 2.0, end: 3.0, peak: 0.2, peakAt: 3.0, box: nil)
        #expect(ended.count == 1)
        if case .ended(let e) = ended.first {
            #expect(e.id == event.id && e.start == event.start && e.end == event.end && e.peak == event.peak && e.peakAt == 3.0)
            #expect(e.box == MotionRect(x: 0.125, y: 0.25, width: 0.625, height: 0.5))
        }
        #expect(!tracker.isMoving)
        // The next event takes the next number; a stop ends it at its last picture.
        _ = tracker.take(Self.moving, at: 9.0)
        _ = tracker.take(Self.moving, at: 9.2)
        #expect(tracker.finish() == .ended(MotionEvent(id: 2, start: 9.0, end: 9.2, peak: 0.05, peakAt: 9.0, box: Self.moving.areas[0])))
    }

    static func event(_ id: Int, _ start: Double, _ end: Double) -> MotionEvent { MotionEvent(id: id, start: start, end: end) }

    @Test func aClipRunsFromThePreRollBeforeTheEventToThePostRollAfter() {
        var planner = MotionClipPlanner()
        #expect(planner.started(Self.event(1, 30, 30)).isEmpty)
        #expect(planner.ended(Self.event(1, 30, 34)).isEmpty)
        #expect(planner.advance(to: 43.9).isEmpty, "the post-roll is not over")
        #expect(planner.advance(to: 44) == [MotionClipPlanner.Clip(from: 20, to: 44, events: [1])])
        #expect(planner.advance(to: 60).isEmpty)
        // The pre-roll never reaches before the session's pictures.
        var early = MotionClipPlanner(sessionStart: 0)
        _ = early.started(Self.event(1, 3, 3))
        _ = early.ended(Self.event(1, 3, 5))
        #expect(early.advance(to: 15) == [MotionClipPlanner.Clip(from: 0, to: 15, events: [1])])
    }

    @Test func eventsThatTouchMakeOneClipAndOthersDoNotRepeatPictures() {
        var planner = MotionClipPlanner()
        _ = planner.started(Self.event(1, 30, 30))
        _ = planner.ended(Self.event(1, 30, 34))
        // The second starts inside the first's post-roll: one clip.
        _ = planner.started(Self.event(2, 40, 40))
        #expect(planner.advance(to: 50).isEmpty)
        _ = planner.ended(Self.event(2, 40, 41))
        #expect(planner.advance(to: 51) == [MotionClipPlanner.Clip(from: 20, to: 51, events: [1, 2])])
        // A third, after the post-roll but with its pre-roll reaching into the clip: it starts
        // where the clip ended.
        _ = planner.started(Self.event(3, 55, 55))
        _ = planner.ended(Self.event(3, 55, 56))
        #expect(planner.advance(to: 66) == [MotionClipPlanner.Clip(from: 51, to: 66, events: [3])])
    }

    @Test func theCoolDownTheMinimumAndTheMaximumLength() {
        var settings = MotionClipPlanner.Settings()
        (settings.coolDown, settings.minimumMotion, settings.maximumLength) = (30, 1, 60)
        var planner = MotionClipPlanner(settings: settings)
        _ = planner.started(Self.event(1, 30, 30))
        _ = planner.ended(Self.event(1, 30, 32))
        #expect(planner.advance(to: 42) == [MotionClipPlanner.Clip(from: 20, to: 42, events: [1])])
        // Within the cool-down: no clip.
        _ = planner.started(Self.event(2, 60, 60))
        _ = planner.ended(Self.event(2, 60, 70))
        #expect(planner.advance(to: 90).isEmpty)
        // Shorter than the minimum: no clip.
        _ = planner.started(Self.event(3, 100, 100))
        _ = planner.ended(Self.event(3, 100, 100.4))
        #expect(planner.advance(to: 200).isEmpty)
        // Longer than the maximum: cut every 60 s, the rest in the next clip.
        _ = planner.started(Self.event(4, 300, 300))
        #expect(planner.advance(to: 349).isEmpty)
        #expect(planner.advance(to: 350) == [MotionClipPlanner.Clip(from: 290, to: 350, events: [4])])
        _ = planner.ended(Self.event(4, 300, 380))
        #expect(planner.advance(to: 390) == [MotionClipPlanner.Clip(from: 350, to: 390, events: [4])])
        // A session that stops mid-event keeps what it has.
        _ = planner.started(Self.event(5, 500, 500))
        #expect(planner.finish(at: 505) == MotionClipPlanner.Clip(from: 490, to: 505, events: [5]))
    }

    @Test func theIndexKeepsAStepsHighestLevelAndForgetsTheOldest() {
        var index = MotionIndex()
        index.record(level: 0.01, at: 10.0)
        index.record(level: 0.03, at: 10.1)
        index.record(level: 0, at: 10.6)
        let levels = index.levels(from: 10, to: 11)
        #expect(levels.map(\.level) == [0.03, nil, nil, 0])
        #expect(levels.map { ($0.seconds * 10).rounded() } == [100, 102, 104, 106])
        index.record(Self.event(1, 10, 10))
        index.record(Self.event(1, 10, 12))
        #expect(index.events == [Self.event(1, 10, 12)])
        #expect(index.events(from: 12.5, to: 20).isEmpty && index.events(from: 11, to: 20).count == 1)
    }

    @Test func indexLinesGatherStillSecondsAndWriteMovingOnes() throws {
        var maker = MotionIndexLineMaker()
        var lines: [MotionIndexLine] = []
        for step in 0..<(10 * 5) {
            let t = Double(step) * 0.2
            lines += maker.level(t >= 4 && t < 5 ? 0.012 : 0, at: t)
        }
        lines += maker.flush()
        #expect(lines.count == 3, "\(lines)")
        #expect(lines[0].t == 0 && lines[0].still == 4)
        #expect(lines[1].t == 4 && lines[1].m == [12, 12, 12, 12, 12])
        #expect(lines[2].t == 5 && lines[2].still == 5)
        // Written and read back the same; a torn last line is not read.
        let ended = MotionIndexLine.ended(MotionEvent(id: 3, start: 4, end: 4.8, peak: 0.0123, peakAt: 4.2,
                                                      box: MotionRect(x: 0.25, y: 0.5, width: 0.125, height: 0.25)))
        #expect(ended.text == #"{"box":[0.25,0.5,0.125,0.25],"end":3,"peak":0.0123,"peak_at":4.2,"t":4,"to":4.8}"# + "\n")
        let back = try #require(MotionIndexLine(text: Substring(ended.text.dropLast())))
        #expect(back.event == MotionEvent(id: 3, start: 4, end: 4.8, peak: 0.0123, peakAt: 4.2,
                                          box: MotionRect(x: 0.25, y: 0.5, width: 0.125, height: 0.25)))
        #expect(MotionIndexLine(text: Substring(ended.text.prefix(20))) == nil)
    }
}
