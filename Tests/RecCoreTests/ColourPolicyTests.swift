import RecCore
import Testing

@Suite struct ColourPolicyTests {
    static let webcam = ColourDescription(range: .full, matrix: 5, primaries: 2, transfer: 2, chromaLocation: 1,
                                          sampleAspect: Rational(1, 1))

    @Test func jpegFormatsRelabelToPlainOnes() {
        #expect(ColourPolicy.plainFormat(forJPEG: "yuvj422p") == "yuv422p")
        #expect(ColourPolicy.plainFormat(forJPEG: "yuvj420p") == "yuv420p")
        #expect(ColourPolicy.plainFormat(forJPEG: "yuv420p") == nil)
    }

    @Test func yuvSourceKeepsEverythingWhenTheLayoutIsKept() {
        #expect(ColourPolicy.target(source: Self.webcam, sourceIsRGB: false, targetIsRGB: false, sameLayout: true) == Self.webcam)
    }

    @Test func conversionKeepsRangeAndMatrixButForgetsChromaSiting() {
        let t = ColourPolicy.target(source: Self.webcam, sourceIsRGB: false, targetIsRGB: false, sameLayout: false)
        #expect(t.range == .full && t.matrix == 5 && t.chromaLocation == 0 && t.sampleAspect == Rational(1, 1))
    }

    @Test func rgbToYUVIsLimitedBT601AndYUVToRGBIsFull() {
        var rgb = ColourDescription.unspecified
        rgb.matrix = ColourDescription.rgbMatrix
        let yuv = ColourPolicy.target(source: rgb, sourceIsRGB: true, targetIsRGB: false, sameLayout: false)
        #expect(yuv.range == .limited && yuv.matrix == ColourDescription.bt601Matrix)
        let back = ColourPolicy.target(source: Self.webcam, sourceIsRGB: false, targetIsRGB: true, sameLayout: false)
        #expect(back.range == .full && back.matrix == ColourDescription.rgbMatrix)
    }

    @Test func aJPEGPresetForcesFullRange() {
        let t = ColourPolicy.target(source: .unspecified, sourceIsRGB: false, targetIsRGB: false, sameLayout: true,
                                    forceFullRange: true)
        #expect(t.range == .full)
        #expect(ColourPolicy.needsConversion(from: .unspecified, to: t))
        #expect(!ColourPolicy.needsConversion(from: Self.webcam, to: t))
    }
}
