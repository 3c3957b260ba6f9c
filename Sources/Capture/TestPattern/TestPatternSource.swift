import Media
import RecCore

/// The built-in stand-in camera: a moving picture at a fixed rate, each frame stamped with its
/// number (`FrameStamp`) and timed exactly at `n / fps` seconds; the first frame of every whole
/// second lights the second mark (`TestPattern.secondMark`). Needs no hardware.
package final class TestPatternSource: FrameSource {
    private let pattern: TestPattern
    private let pool: FramePool
    package let fps: Int
    private var next: Int64 = 0
    private var started = false

    package init(width: Int = 1280, height: Int = 720, fps: Int = 30) {
        self.pattern = TestPattern(width: width, height: height)
        self.pool = FramePool(format: pattern.format)
        self.fps = fps
    }

    package var format: VideoFormat { pattern.format }
    package var nominalFrameRate: Rational? { Rational(Int32(fps), 1) }
    package var description: String { "test pattern \(pattern.width)x\(pattern.height)@\(fps)" }
    package var droppedFrames: Int { 0 }
    /// None: it is paced by the capture loop and never blocks.
    package var capabilities: SourceCapabilities { SourceCapabilities() }

    package func start() throws(RecError) { started = true }

    package func nextFrame() throws(RecError) -> VideoFrame? {
        guard started else { return nil }
        // Frame n at n/fps, to the nearest microsecond (as every time rec reports is rounded),
        // so n frames last n/fps: 7 frames at 7 fps end at 1 s, not 999999 µs.
        let time = Timestamp(value: next, timeBase: Rational(1, Int32(fps))).rescaled(to: .microseconds)
        do {
            let frame = try pool.next()
            frame.captureTime = time
            frame.sequence = next
            pattern.draw(Int(next), into: frame, marksSecond: next % Int64(fps) == 0)
            next += 1
            return frame
        } catch {
            throw error.recError("the stand-in camera could not allocate a frame")
        }
    }

    package func stop() { started = false }
}
