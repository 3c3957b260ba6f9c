import Testing
@testable import RecCore

/// Issue 40's detector on drawn scenes: a textured background (a gradient with a grid, so the
/// contrast stretch has something to stretch) and a bright square that moves or not.
@Suite struct MotionDetectorTests {
    static let width = 320, height = 180

    /// The scene, lit by `light` (added to every pixel), with a 24-pixel square at `square`.
    static func scene(square: (x: Int, y: Int)? = nil, light: Int = 0, size: Int = 24) -> [UInt8] {
        (0..<(width * height)).map { i in
            let (x, y) = (i % width, i / width)
            var value = 40 + x / 4 + ((x / 16 + y / 16) % 2 == 0 ? 20 : 0)
            if let square, x >= square.x, x < square.x + size, y >= square.y, y < square.y + size { value = 235 }
            return UInt8(clamping: value + light)
        }
    }

    @Test func aStillSceneHasNoMotion() {
        var detector = MotionDetector()
        for _ in 0..<10 {
            let sample = detector.analyse(luma: Self.scene(square: (100, 60)), width: Self.width, height: Self.height)
            #expect(sample == .still)
        }
        #expect(detector.width == 178 && detector.height == 100)
    }

    @Test func aMovingSquareIsMotionWhereItIs() throws {
        var detector = MotionDetector()
        _ = detector.analyse(luma: Self.scene(square: (40, 60)), width: Self.width, height: Self.height)
        let sample = detector.analyse(luma: Self.scene(square: (200, 60)), width: Self.width, height: Self.height)
        #expect(!sample.lighting && sample.level > 0.01 && sample.level < 0.2, "\(sample)")
        // Two areas: where the square came from and where it went.
        #expect(sample.areas.count == 2, "\(sample.areas)")
        let went = try #require(sample.areas.first { $0.x > 0.5 })
        #expect(went.contains(x: 212.0 / 320, y: 72.0 / 180), "\(went)")
    }

    @Test func theLightComingOnIsNoMotion() {
        var detector = MotionDetector()
        _ = detector.analyse(luma: Self.scene(), width: Self.width, height: Self.height)
        // A dim scene lit brightly: with the contrast stretched, what changes is the texture's
        // place in the range only a little; a lamp that lights part of the scene changes most of it.
        var lit = Self.scene()
        for i in lit.indices where i % Self.width < 280 { lit[i] = UInt8(clamping: Int(lit[i]) + 120) }
        let sample = detector.analyse(luma: lit, width: Self.width, height: Self.height)
        #expect(sample.lighting && sample.level == 0 && sample.areas.isEmpty, "\(sample)")
        // The background starts again from the lit scene: the next lit picture is still.
        #expect(detector.analyse(luma: lit, width: Self.width, height: Self.height) == .still)
    }

    @Test func aMaskedPartIsNotJudged() {
        var settings = MotionSettings()
        settings.masks = [MotionRect(x: 0, y: 0, width: 0.5, height: 1)]
        var detector = MotionDetector(settings: settings)
        _ = detector.analyse(luma: Self.scene(square: (20, 60)), width: Self.width, height: Self.height)
        let left = detector.analyse(luma: Self.scene(square: (90, 60)), width: Self.width, height: Self.height)
        #expect(left == .still, "\(left)")
        let right = detector.analyse(luma: Self.scene(square: (220, 60)), width: Self.width, height: Self.height)
        #expect(right.areas.count == 1 && right.areas[0].x > 0.5, "\(right)")
    }

    @Test func somethingSmallerThanTheLeastAreaIsNoMotion() {
        var settings = MotionSettings()
        settings.minimumArea = 0.02
        var detector = MotionDetector(settings: settings)
        _ = detector.analyse(luma: Self.scene(square: (40, 60), size: 8), width: Self.width, height: Self.height)
        let sample = detector.analyse(luma: Self.scene(square: (200, 60), size: 8), width: Self.width, height: Self.height)
        #expect(sample == .still, "\(sample)")
    }

    @Test func aParkedThingBecomesBackground() {
        var detector = MotionDetector()
        _ = detector.analyse(luma: Self.scene(), width: Self.width, height: Self.height)
        let parked = Self.scene(square: (150, 80))
        #expect(detector.analyse(luma: parked, width: Self.width, height: Self.height).level > 0)
        // Once it stands still it is no motion, though the background has not taken it yet.
        #expect(detector.analyse(luma: parked, width: Self.width, height: Self.height) == .still)
        // At 5 pictures a second and a weight of 0.05 the background holds it within 15 s: its
        // leaving is then motion where it stood.
        for _ in 0..<75 { _ = detector.analyse(luma: parked, width: Self.width, height: Self.height) }
        let left = detector.analyse(luma: Self.scene(), width: Self.width, height: Self.height)
        #expect(left.areas.count == 1 && left.areas[0].contains(x: 162.0 / 320, y: 92.0 / 180), "\(left)")
    }

    @Test func aPaddedPlaneIsReadByItsStride() {
        var detector = MotionDetector()
        func padded(_ plane: [UInt8]) -> [UInt8] {
            (0..<Self.height).flatMap { Array(plane[($0 * Self.width)..<(($0 + 1) * Self.width)]) + [UInt8](repeating: 255, count: 64) }
        }
        let stride = Self.width + 64
        let first = padded(Self.scene(square: (40, 60))), second = padded(Self.scene(square: (40, 60)))
        first.withUnsafeBufferPointer { _ = detector.analyse(luma: $0, width: Self.width, height: Self.height, stride: stride) }
        let sample = second.withUnsafeBufferPointer { detector.analyse(luma: $0, width: Self.width, height: Self.height, stride: stride) }
        #expect(sample == .still)
    }

    /// A clock overlay: a 64x24 block in the top-left corner whose stripes change every picture,
    /// bright (235) and dark (16), 2.7 % of the picture, on a scene whose top is its grey.
    static func withClock(_ luma: [UInt8], tick: Int) -> [UInt8] {
        var out = luma
        for y in 0..<24 { for x in 0..<64 { out[y * width + x] = ((x / 8 + tick) % 2 == 0) ? 235 : 16 } }
        return out
    }

    @Test func aMaskOnAClocksEdgesLeavesItOut() {
        // Before masked pixels were frozen, the blur carried the clock's changes past the mask's
        // edge and the analysed pixels straddling it changed with the clock.
        var settings = MotionSettings()
        settings.masks = [MotionRect(x: 0, y: 0, width: 64.0 / 320, height: 24.0 / 180)]
        var detector = MotionDetector(settings: settings)
        for tick in 0..<20 {
            let sample = detector.analyse(luma: Self.withClock(Self.scene(square: (150, 80)), tick: tick), width: Self.width, height: Self.height)
            #expect(sample == .still, "tick \(tick): \(sample)")
        }
    }

    @Test func aMaskedOverlayDoesNotSetTheContrast() {
        // A flat grey scene (no texture) with a bright masked overlay: before, the overlay made the
        // stretch's top, the grey went to 255 with the square, and the moving square was no change.
        var settings = MotionSettings()
        settings.masks = [MotionRect(x: 0, y: 0, width: 0.3, height: 0.3)]
        var detector = MotionDetector(settings: settings)
        func flat(_ square: (Int, Int), tick: Int) -> [UInt8] {
            var luma = [UInt8](repeating: 128, count: Self.width * Self.height)
            for y in 0..<54 { for x in 0..<96 { luma[y * Self.width + x] = (x / 8 + tick) % 2 == 0 ? 235 : 16 } }
            for y in square.1..<(square.1 + 24) { for x in square.0..<(square.0 + 24) { luma[y * Self.width + x] = 235 } }
            return luma
        }
        _ = detector.analyse(luma: flat((120, 100), tick: 0), width: Self.width, height: Self.height)
        let moved = detector.analyse(luma: flat((220, 100), tick: 1), width: Self.width, height: Self.height)
        #expect(moved.level > 0 && moved.areas.allSatisfy { $0.x >= 0.3 || $0.y >= 0.3 }, "\(moved)")
    }
}
