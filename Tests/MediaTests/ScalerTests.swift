import Foundation
import Media
import RecCore
import Testing

/// libswscale as rec uses it: 4:2:2 → 4:2:0 (an MJPEG webcam into x264) must average each pair
/// of chroma rows; point sampling kept every other row and dropped the rest.
@Suite struct ScalerTests {
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
