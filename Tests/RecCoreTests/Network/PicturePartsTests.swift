import RecCore
import Testing

/// `PictureParts`: which packets of a camera's H.264 or H.265 begin a picture, from the bytes
/// libavformat hands out (issue 39's /h264-sliced camera: AUD, SPS, PPS, the first IDR slice;
/// then SPS, PPS and the second IDR slice as a packet of the same time).
@Suite struct PicturePartsTests {
    static let code: [UInt8] = [0, 0, 0, 1]
    static let aud: [UInt8] = code + [0x09, 0xF0]
    static let sps: [UInt8] = code + [0x67, 0x42, 0xC0, 0x1E, 0x00, 0x00, 0x03, 0x00]
    static let pps: [UInt8] = code + [0x68, 0xCE, 0x3C, 0x80]
    /// An IDR slice whose first_mb_in_slice is 0 (ue(v) "1"), and one whose is 40 (a later slice).
    static let firstSlice: [UInt8] = code + [0x65, 0x88, 0x84, 0x00, 0x21]
    static let laterSlice: [UInt8] = [0, 0, 1, 0x65, 0x00, 0xA4, 0x11, 0x08]

    static func starts(_ bytes: [UInt8], _ codec: Codec = .h264) -> Bool? {
        bytes.withUnsafeBytes { PictureParts.startsPicture($0, codec: codec) }
    }

    @Test func aPicturesFirstSliceStartsItAndALaterOneContinuesIt() {
        #expect(Self.starts(Self.aud + Self.sps + Self.pps + Self.firstSlice) == true)
        #expect(Self.starts(Self.sps + Self.pps + Self.laterSlice) == false)
        // A P-frame's slice (type 1) the same way.
        #expect(Self.starts(Self.aud + Self.code + [0x41, 0x9A, 0x02]) == true)
        #expect(Self.starts(Self.code + [0x41, 0x02, 0x9A]) == false)
    }

    @Test func packetsWithoutASliceOrNotAnnexBAreKeptAsTheyCame() {
        #expect(Self.starts(Self.sps + Self.pps) == nil)
        #expect(Self.starts([0, 0, 0, 5, 0x65, 0x88, 0x84, 0x00, 0x21]) == nil)  // length-prefixed (FLV, MP4)
        #expect(Self.starts(Self.aud + Self.firstSlice, .mjpeg) == nil)
        #expect(Self.starts([]) == nil)
    }

    /// The /h264-sliced camera killed between a picture's parts: libavformat handed out a 6-byte
    /// packet with no slice, which rec counted as a picture (675 counted, 674 decoded, and ffmpeg
    /// said "missing picture in access unit with size 6").
    @Test func aPacketWithNoSliceIsNoPicture() {
        func sliceless(_ bytes: [UInt8], _ codec: Codec = .h264) -> Bool {
            bytes.withUnsafeBytes { PictureParts.isSliceless($0, codec: codec) }
        }
        #expect(sliceless(Self.aud))
        #expect(sliceless(Self.sps + Self.pps))
        #expect(!sliceless(Self.sps + Self.pps + Self.laterSlice))
        #expect(!sliceless(Self.aud + Self.firstSlice))
        #expect(!sliceless([0, 0, 0, 5, 0x65, 0x88, 0x84, 0x00, 0x21]))  // length-prefixed: not judged
        #expect(!sliceless(Self.aud, .mjpeg))
        #expect(!sliceless([]))
    }

    @Test func hevcReadsTheFirstSliceSegmentFlag() {
        let vps = Self.code + [0x40, 0x01, 0x0C, 0x01]
        let idr = Self.code + [0x26, 0x01, 0xAF, 0x06]   // IDR_W_RADL, first_slice_segment_in_pic_flag 1
        let later = Self.code + [0x26, 0x01, 0x2F, 0x06]
        #expect(Self.starts(vps + idr, .hevc) == true)
        #expect(Self.starts(vps + later, .hevc) == false)
    }

    @Test func aContinuationAddsItsSlicesWithoutTheRepeatedParameterSets() {
        let part = Self.sps + Self.pps + Self.laterSlice
        let added = part.withUnsafeBytes { Array(PictureParts.continuation($0, codec: .h264)) }
        #expect(added == Self.laterSlice)
        // A four-byte start code stays whole.
        let four = Self.sps + Self.code + [0x65, 0x00, 0xA4]
        #expect(four.withUnsafeBytes { Array(PictureParts.continuation($0, codec: .h264)) } == Self.code + [0x65, 0x00, 0xA4])
    }
}
