import Foundation
import Media
import RecCore
import Testing
import TestPool

/// libswscale as rec uses it: 4:2:2 → 4:2:0 (an MJPEG webcam into x264) must average each pair
/// of chroma rows; point sampling kept every other row and dropped the rest.
@Suite(.blocking) struct ScalerTests {
    @Test func chromaRowsAreAveragedNotDropped() throws {
        let yuv422p = try #require(PixelFormat(name: "yuv422p"))
        let source = try VideoFrame(format: VideoFormat(width: 64, height: 64, pixelFormat: yuv422p))
        for plane in 0..<3 {
            let (base, stride) = try #require(source.plane(plane))
            let width = plane == 0 ? 64 : 32
            for y in 0..<64 {
                // Luma flat; Cb alternates 64/192 row by row, Cr stays neutral.
                let value: UInt8 = plane == 0 ? 128 : plane == 1 ? (y % 2 == 0 ? 64 : 192) : 128
                for x in 0..<width { base[y * stride + x] = value }
            }
        }
        let scaler = try Scaler(from: source.format, to: VideoFormat(width: 64, height: 64, pixelFormat: .yuv420p))
        let out = try scaler.scale(source)
        let (cb, stride) = try #require(out.plane(1))
        var worst = 0
        // Rows away from the picture's top and bottom edge, where the filter has both neighbours.
        for y in 2..<30 {
            for x in 0..<32 { worst = max(worst, abs(Int(cb[y * stride + x]) - 128)) }
        }
        #expect(worst <= 2, "4:2:0 chroma strays \(worst) from the average of its two 4:2:2 rows")
    }
}

/// RGB → 4:2:0 (a screen's bgr0 into x264), the path `Scaler.flags(from:)` makes cheaper:
/// BT.601 limited-range values for flat colours, and each chroma sample from both pixels of
/// its pair when neighbouring columns differ.
@Suite(.blocking) struct ScalerRGBTests {
    /// A bgr0 picture whose column x has the colour `colour(x)` (blue, green, red).
    func picture(width: Int = 64, height: Int = 16, _ colour: (Int) -> (UInt8, UInt8, UInt8)) throws -> VideoFrame {
        let bgr0 = try #require(PixelFormat(name: "bgr0"))
        let frame = try VideoFrame(format: VideoFormat(width: width, height: height, pixelFormat: bgr0))
        let (base, stride) = try #require(frame.plane(0))
        for y in 0..<height {
            for x in 0..<width {
                let (b, g, r) = colour(x)
                base[y * stride + 4 * x] = b
                base[y * stride + 4 * x + 1] = g
                base[y * stride + 4 * x + 2] = r
                base[y * stride + 4 * x + 3] = 0
            }
        }
        return frame
    }

    /// The values of plane `plane` away from the picture's edges.
    func inner(_ frame: VideoFrame, plane: Int) throws -> [Int] {
        let (base, stride) = try #require(frame.plane(plane))
        let w = plane == 0 ? frame.format.width : frame.format.width / 2
        let h = plane == 0 ? frame.format.height : frame.format.height / 2
        return (2..<(h - 2)).flatMap { y in (4..<(w - 4)).map { Int(base[y * stride + $0]) } }
    }

    @Test func flatColoursHaveTheirBT601Values() throws {
        // BT.601 limited range: red is Y 81, Cb 90, Cr 240; blue Y 41, Cb 240, Cr 110.
        for (bgr, yuv) in [((UInt8(0), UInt8(0), UInt8(255)), (81, 90, 240)), ((255, 0, 0), (41, 240, 110)),
                           ((128, 128, 128), (126, 128, 128))] {
            let source = try picture { _ in bgr }
            let out = try Scaler(from: source.format, to: VideoFormat(width: 64, height: 16, pixelFormat: .yuv420p)).scale(source)
            for (plane, want) in [(0, yuv.0), (1, yuv.1), (2, yuv.2)] {
                let values = try inner(out, plane: plane)
                let worst = values.map { abs($0 - want) }.max() ?? 99
                #expect(worst <= 1, "plane \(plane) of \(bgr): \(Set(values).sorted()), want \(want)")
            }
        }
    }

    @Test func chromaOfAPairIsFromBothPixels() throws {
        // Columns alternate red and blue: every chroma sample lies between the two colours' own
        // (Cb 90 and 240, Cr 240 and 110), at their average (165, 175), not on either.
        let source = try picture { $0 % 2 == 0 ? (0, 0, 255) : (255, 0, 0) }
        let out = try Scaler(from: source.format, to: VideoFormat(width: 64, height: 16, pixelFormat: .yuv420p)).scale(source)
        for (plane, average) in [(1, 165), (2, 175)] {
            let values = try inner(out, plane: plane)
            let worst = values.map { abs($0 - average) }.max() ?? 99
            #expect(worst <= 2, "plane \(plane): \(Set(values).sorted()), average \(average)")
        }
    }
}
