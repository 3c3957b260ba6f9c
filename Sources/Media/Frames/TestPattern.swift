import CFFmpeg
import RecCore

/// Draws the stand-in camera's pictures: a textured scene that scrolls and a bright square that
/// moves, so encoders have real motion to work on, with the frame number stamped across the top
/// (`FrameStamp`). YUV 4:2:0; the texture is made once and each frame copies a shifted window of
/// it, so drawing 1080p costs about one memcpy of the picture.
package final class TestPattern {
    package let width: Int
    package let height: Int
    private let texture: [UInt8]        // luma texture, (width + pad) x height
    private let pad = 256

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
        let w = width + pad
        var t = [UInt8](repeating: 0, count: w * height)
        // A smooth field of gentle hills plus a little grain: structure for motion search, detail
        // for the rate control, about as hard for x264 as a real camera picture (4 levels of grain;
        // 16 made 1080p cost x264 a quarter more than ffmpeg's testsrc2). Deterministic, so every
        // run makes the same pictures.
        var seed: UInt32 = 0x9E37_79B9
        for y in 0..<height {
            for x in 0..<w {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let grain = Int(seed >> 30)  // 0...3
                let hills = (((x / 24) + (y / 24)) % 2 == 0 ? 40 : 0) + (x * 96 / w) + (y * 48 / max(1, height))
                t[y * w + x] = UInt8(clamping: 40 + hills + grain)
            }
        }
        self.texture = t
    }

    package var format: VideoFormat { VideoFormat(width: width, height: height, pixelFormat: .yuv420p) }

    /// Where the picture marks a whole second of the session timeline: a block in the bottom-left
    /// corner, an eighth of the picture each way, bright (235) on the frame that starts a second,
    /// dark (16) on every other. The stand-in tone clicks at the same instants (`--audio test`),
    /// so sync can be measured from a recording alone.
    package var secondMark: (x: Int, y: Int, width: Int, height: Int) {
        let w = max(2, width / 8 & ~1), h = max(2, height / 8 & ~1)
        return (0, height - h, w, h)
    }

    /// Draws picture `index` into a yuv420p frame of this pattern's size; `marksSecond` lights
    /// the second mark.
    package func draw(_ index: Int, into frame: VideoFrame, marksSecond: Bool = false) {
        guard let (y, ys) = frame.plane(0), let (u, us) = frame.plane(1), let (v, vs) = frame.plane(2) else { return }
        let shift = (index * 4) % pad
        let w = width + pad
        texture.withUnsafeBufferPointer { t in
            // Empty only for a picture with no rows, where there is nothing to copy.
            guard let texels = t.baseAddress else { return }
            for row in 0..<height {
                (y + row * ys).update(from: texels + row * w + shift, count: width)
            }
        }
        // A square crossing the picture, one full sweep every 4 seconds at 30 fps.
        let side = max(8, height / 6)
        let x0 = (index * max(1, width / 120)) % max(1, width - side)
        let y0 = height / 2 - side / 2
        for row in y0..<(y0 + side) { (y + row * ys + x0).update(repeating: 220, count: side) }
        // Chroma: a slow colour drift.
        let cu = UInt8(truncatingIfNeeded: 128 + Int(40 * sin(Double(index) / 45)))
        let cv = UInt8(truncatingIfNeeded: 128 + Int(40 * cos(Double(index) / 60)))
        for row in 0..<((height + 1) / 2) {
            (u + row * us).update(repeating: cu, count: (width + 1) / 2)
            (v + row * vs).update(repeating: cv, count: (width + 1) / 2)
        }
        let mark = secondMark
        for row in mark.y..<(mark.y + mark.height) {
            (y + row * ys + mark.x).update(repeating: marksSecond ? 235 : 16, count: mark.width)
        }
        FrameStamp.draw(index, luma: y, bytesPerRow: ys, width: width, height: height)
    }
}

extension VideoFrame {
    /// The frame number stamped in the picture (`FrameStamp`), if it has one and is 8-bit YUV.
    package func readStamp() -> Int? {
        guard let (y, ys) = plane(0) else { return nil }
        let f = format.pixelFormat
        guard f == .yuv420p || f == .yuvj420p || f == PixelFormat(name: "yuv422p") || f == PixelFormat(name: "yuv444p")
                || f == .nv12 || f == PixelFormat(name: "yuvj422p") else { return nil }
        return FrameStamp.read(luma: y, bytesPerRow: ys, width: format.width, height: format.height)
    }
}
