import Testing
@testable import RecCore

/// Issue 40's detector over time, as a session runs it: pictures chosen by `MotionCadence`,
/// judged by `MotionDetector`, turned into events by `MotionTracker`. Drawn scenes at a chosen
/// frame rate; `MotionDetectorTests.scene` draws them.
@Suite struct MotionOverTimeTests {
    typealias Scene = MotionDetectorTests

    /// A 40-pixel square (2.8 % of the picture) still at x = 40 until `moveAt`, then moving
    /// right at 60 pixels a second until `stopAt`.
    static func square(at seconds: Double, moveAt: Double, stopAt: Double) -> (x: Int, y: Int) {
        let moved = max(0, min(seconds, stopAt) - moveAt)
        return (40 + Int(moved * 60), 70)
    }

    /// Runs a scene for `duration` seconds at `fps`; returns the events, ended or under way.
    static func events(fps: Double, duration: Double, noise: Int = 0,
                       picture: (Double) -> [UInt8]) -> [MotionEvent] {
        var cadence = MotionCadence()
        var detector = MotionDetector()
        var tracker = MotionTracker()
        var events: [MotionEvent] = []
        var seed: UInt64 = 0x2545F4914F6CDD1D
        for n in 0..<Int(duration * fps) {
            let t = Double(n) / fps
            guard cadence.takes(t) else { continue }
            var luma = picture(t)
            if noise > 0 {
                for i in luma.indices {
                    seed = seed &* 6364136223846793005 &+ 1442695040888963407
                    luma[i] = UInt8(clamping: Int(luma[i]) + Int(seed >> 33) % (2 * noise + 1) - noise)
                }
            }
            let sample = detector.analyse(luma: luma, width: Scene.width, height: Scene.height)
            for change in tracker.take(sample, at: t) {
                if case .ended(let e) = change { events.append(e) }
            }
        }
        if let open = tracker.current { events.append(open) }
        return events
    }

    @Test func aMovingThingIsFoundWithinHalfASecondOfItsFirstMove() throws {
        let found = Self.events(fps: 30, duration: 12) { t in
            Scene.scene(square: Self.square(at: t, moveAt: 3, stopAt: 6), size: 40)
        }
        try #require(found.count == 1, "\(found)")
        #expect(found[0].start >= 3 && found[0].start <= 3.5, "\(found[0])")
        #expect(found[0].end >= 5.8 && found[0].end <= 6.4, "\(found[0])")
        let box = try #require(found[0].box)
        // It moved along the picture's middle band, from x = 40 to 220 of 320.
        #expect(box.x < 60.0 / 320 && box.x + box.width > 240.0 / 320 && box.y < 70.0 / 180 && box.y + box.height > 110.0 / 180, "\(box)")
    }

    @Test func cameraNoiseIsNoMotion() {
        let found = Self.events(fps: 30, duration: 20, noise: 10) { _ in Scene.scene(square: (100, 60), size: 40) }
        #expect(found.isEmpty, "\(found)")
    }

    @Test func aSlowBrightnessRampIsNoMotion() {
        // Dusk in reverse: the whole scene brightens by 70 over 35 s.
        let found = Self.events(fps: 15, duration: 35, noise: 4) { t in Scene.scene(square: (100, 60), light: Int(t * 2), size: 40) }
        #expect(found.isEmpty, "\(found)")
    }

    @Test func aSuddenLightingChangeIsNoMotion() {
        // A lamp over most of the scene at 4 s, off again at 9 s; and the whole scene's light
        // stepping up by 60 at 12 s (a camera's exposure).
        let found = Self.events(fps: 25, duration: 16, noise: 4) { t in
            var luma = Scene.scene(square: (100, 60), light: t >= 12 ? 60 : 0, size: 40)
            if t >= 4 && t < 9 {
                for i in luma.indices where i % Scene.width < 280 { luma[i] = UInt8(clamping: Int(luma[i]) + 120) }
            }
            return luma
        }
        #expect(found.isEmpty, "\(found)")
    }

    @Test func aMaskedMoverIsIgnoredAndOneBesideItIsNot() {
        var settings = MotionSettings()
        settings.masks = [MotionRect(x: 0, y: 0, width: 1, height: 0.5)]
        func run(y: Int) -> [MotionEvent] {
            var cadence = MotionCadence(), detector = MotionDetector(settings: settings), tracker = MotionTracker()
            var found: [MotionEvent] = []
            for n in 0..<(10 * 30) {
                let t = Double(n) / 30
                guard cadence.takes(t) else { continue }
                let x = Self.square(at: t, moveAt: 2, stopAt: 6).x
                let sample = detector.analyse(luma: Scene.scene(square: (x, y), size: 30), width: Scene.width, height: Scene.height)
                for case .started(let e) in tracker.take(sample, at: t) { found.append(e) }
            }
            return found
        }
        #expect(run(y: 10).isEmpty)
        #expect(run(y: 120).count == 1)
    }

    @Test(arguments: [5.0, 7.5, 10, 12.5, 15, 20, 24, 25, 30])
    func theSameMotionGivesTheSameEventsAtAnyFrameRate(fps: Double) throws {
        let found = Self.events(fps: fps, duration: 14) { t in
            Scene.scene(square: Self.square(at: t, moveAt: 3, stopAt: 7), size: 40)
        }
        try #require(found.count == 1, "\(fps) fps: \(found)")
        // At 30 fps the event runs 3.2 s to 7.0 s; every rate finds it within one analysed
        // picture (0.2 s) of that, plus one of its own frames.
        let slack = 0.2 + 1 / fps + 0.001
        #expect(abs(found[0].start - 3.2) <= slack && abs(found[0].end - 7.0) <= slack, "\(fps) fps: \(found[0])")
        #expect(found[0].peak > 0.02 && found[0].peak < 0.15, "\(fps) fps: \(found[0])")
    }
}
