import CFFmpeg
import CV4L2
import Media
import RecCore
import VideoDevices

/// What VIDIOC_G_FMT says about the pictures beyond size and format: their colour (colorspace,
/// Y'CbCr encoding, quantization, transfer function) and field order. Delivered frames are tagged
/// with it, and `rec devices`/status text name it ("BT.601 limited", "interlaced").
struct CameraSignal: Hashable, Sendable {
    enum Matrix: Hashable, Sendable { case bt601, bt709, bt2020 }

    var matrix: Matrix
    var fullRange: Bool
    /// Interlaced frames and which field comes first.
    var interlaced: Bool
    var topFieldFirst: Bool
    /// Each buffer holds one half-height field, top and bottom in turn (V4L2_FIELD_ALTERNATE),
    /// and the camera weaves each pair into a frame at half the buffer rate.
    var alternateFields = false

    static let progressive601 = CameraSignal(matrix: .bt601, fullRange: false, interlaced: false, topFieldFirst: true)

    /// From G_FMT's fields; V4L2's "default" values resolve the way the kernel's
    /// V4L2_MAP_*_DEFAULT macros do. Throws for field orders rec cannot record.
    init(_ pix: v4l2_pix_format, fourcc: FourCC, path: String) throws(RecError) {
        let colorspace = pix.colorspace
        let enc = pix.ycbcr_enc
        if enc == CV4L2_YCBCR_ENC_709 { matrix = .bt709 }
        else if enc == CV4L2_YCBCR_ENC_601 { matrix = .bt601 }
        else if enc == CV4L2_YCBCR_ENC_BT2020 { matrix = .bt2020 }
        else if colorspace == CV4L2_COLORSPACE_REC709 { matrix = .bt709 }
        else if colorspace == CV4L2_COLORSPACE_BT2020 { matrix = .bt2020 }
        else { matrix = .bt601 } // SMPTE170M, SRGB, JPEG, 470BG and unset: BT.601
        if pix.quantization == CV4L2_QUANTIZATION_FULL_RANGE { fullRange = true }
        else if pix.quantization == CV4L2_QUANTIZATION_LIM_RANGE { fullRange = false }
        else { fullRange = colorspace == CV4L2_COLORSPACE_JPEG || fourcc.isJPEG }
        let field = pix.field
        switch field {
        case CV4L2_FIELD_INTERLACED, CV4L2_FIELD_INTERLACED_TB: (interlaced, topFieldFirst) = (true, true)
        case CV4L2_FIELD_INTERLACED_BT: (interlaced, topFieldFirst) = (true, false)
        case CV4L2_FIELD_ALTERNATE where fourcc.isRaw:
            // The order comes from the buffers' own field flags (V4L2: it depends on the standard).
            (interlaced, topFieldFirst, alternateFields) = (true, true, true)
        case CV4L2_FIELD_ALTERNATE, CV4L2_FIELD_TOP, CV4L2_FIELD_BOTTOM, CV4L2_FIELD_SEQ_TB, CV4L2_FIELD_SEQ_BT:
            let what = field == CV4L2_FIELD_ALTERNATE ? "alternating fields of JPEG (each buffer one half-height field)"
                : field == CV4L2_FIELD_SEQ_TB || field == CV4L2_FIELD_SEQ_BT ? "both fields one after the other in each buffer"
                : "single fields"
            throw .runtime("\(path) delivers \(what), which rec cannot weave into frames yet; feed it a progressive signal "
                           + "or set the card to interlaced (woven) output, e.g. v4l2-ctl -d \(path) --set-fmt-video=field=interlaced",
                           location: path)
        default: (interlaced, topFieldFirst) = (false, true)
        }
    }

    init(matrix: Matrix, fullRange: Bool, interlaced: Bool, topFieldFirst: Bool) {
        (self.matrix, self.fullRange, self.interlaced, self.topFieldFirst) = (matrix, fullRange, interlaced, topFieldFirst)
    }

    /// "BT.601 limited", "BT.709 full, interlaced (top field first)".
    var description: String {
        let name = switch matrix { case .bt601: "BT.601"; case .bt709: "BT.709"; case .bt2020: "BT.2020" }
        let field = interlaced ? ", interlaced (\(topFieldFirst ? "top" : "bottom") field first\(alternateFields ? ", woven from alternating fields" : ""))" : ""
        return "\(name) \(fullRange ? "full" : "limited")\(field)"
    }

    /// Tags a delivered frame: color_range, colorspace, color_primaries, color_trc and the
    /// interlacing flags, which encoders copy into the stream.
    func tag(_ frame: VideoFrame) {
        let f = frame.pointer
        f.pointee.color_range = fullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        switch matrix {
        case .bt601: (f.pointee.colorspace, f.pointee.color_primaries, f.pointee.color_trc) = (AVCOL_SPC_SMPTE170M, AVCOL_PRI_SMPTE170M, AVCOL_TRC_SMPTE170M)
        case .bt709: (f.pointee.colorspace, f.pointee.color_primaries, f.pointee.color_trc) = (AVCOL_SPC_BT709, AVCOL_PRI_BT709, AVCOL_TRC_BT709)
        case .bt2020: (f.pointee.colorspace, f.pointee.color_primaries, f.pointee.color_trc) = (AVCOL_SPC_BT2020_NCL, AVCOL_PRI_BT2020, AVCOL_TRC_BT2020_10)
        }
        // FFmpeg 5.1 (Debian 12) has these fields; 6.1 moved them into `flags`.
        f.pointee.interlaced_frame = interlaced ? 1 : 0
        f.pointee.top_field_first = interlaced && topFieldFirst ? 1 : 0
    }
}
