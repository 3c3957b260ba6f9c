/// How a picture's numbers mean colours, and its pixels' shape: what a source says about its
/// frames and what a recording must say about its own. The numbers are the ITU-T H.273 code points
/// that FFmpeg's `AVColorPrimaries`, `AVColorTransferCharacteristic` and `AVColorSpace` use, so
/// they pass between FFmpeg and this pure core unchanged.
package struct ColourDescription: Sendable, Hashable, CustomStringConvertible {
    /// Quantisation range (`AVColorRange`): limited is 16–235 luma ("tv", MPEG), full is 0–255
    /// ("pc", JPEG — MJPEG webcams).
    package enum Range: Int32, Sendable {
        case unspecified = 0, limited = 1, full = 2
    }

    package var range: Range
    /// YUV ↔ RGB matrix (`AVColorSpace`): 0 RGB, 1 BT.709, 2 unspecified, 5 BT.470BG, 6 SMPTE 170M
    /// (both BT.601), 9 BT.2020.
    package var matrix: Int32
    /// Colour primaries (`AVColorPrimaries`); 2 is unspecified.
    package var primaries: Int32
    /// Transfer characteristic (`AVColorTransferCharacteristic`); 2 is unspecified.
    package var transfer: Int32
    /// Where chroma samples sit (`AVChromaLocation`); 0 is unspecified.
    package var chromaLocation: Int32
    /// The shape of one pixel, width over height; 0/1 means unknown (square, to players).
    package var sampleAspect: Rational

    package static let unspecifiedMatrix: Int32 = 2
    package static let rgbMatrix: Int32 = 0
    /// BT.601 (SMPTE 170M): what libswscale uses for RGB → YUV when told nothing else.
    package static let bt601Matrix: Int32 = 6

    package static let unspecified = ColourDescription(range: .unspecified, matrix: 2, primaries: 2, transfer: 2,
                                                      chromaLocation: 0, sampleAspect: Rational(0, 1))

    package init(range: Range, matrix: Int32, primaries: Int32, transfer: Int32, chromaLocation: Int32,
                sampleAspect: Rational) {
        self.range = range
        self.matrix = matrix
        self.primaries = primaries
        self.transfer = transfer
        self.chromaLocation = chromaLocation
        self.sampleAspect = sampleAspect
    }

    /// Full range or not, as a converter must treat it: unspecified YUV is limited.
    package var isFullRange: Bool { range == .full }

    package var description: String {
        "range \(range) matrix \(matrix) primaries \(primaries) transfer \(transfer) chroma \(chromaLocation) SAR \(sampleAspect.num):\(sampleAspect.den)"
    }
}
