import CFFmpeg
import RecCore

extension VideoFrame {
    /// What the frame says about its colour and pixel shape: `AVFrame`'s `color_range`,
    /// `colorspace`, `color_primaries`, `color_trc`, `chroma_location` and `sample_aspect_ratio`,
    /// set by the decoder (from the bitstream or the container) or by the camera (from V4L2's
    /// colorspace and quantization).
    package var colour: ColourDescription {
        get {
            let f = pointer.pointee
            return ColourDescription(range: ColourDescription.Range(rawValue: Int32(f.color_range.rawValue)) ?? .unspecified,
                                     matrix: Int32(f.colorspace.rawValue), primaries: Int32(f.color_primaries.rawValue),
                                     transfer: Int32(f.color_trc.rawValue), chromaLocation: Int32(f.chroma_location.rawValue),
                                     sampleAspect: Rational(f.sample_aspect_ratio))
        }
        set {
            pointer.pointee.color_range = AVColorRange(rawValue: UInt32(newValue.range.rawValue))
            pointer.pointee.colorspace = AVColorSpace(rawValue: UInt32(newValue.matrix))
            pointer.pointee.color_primaries = AVColorPrimaries(rawValue: UInt32(newValue.primaries))
            pointer.pointee.color_trc = AVColorTransferCharacteristic(rawValue: UInt32(newValue.transfer))
            pointer.pointee.chroma_location = AVChromaLocation(rawValue: UInt32(newValue.chromaLocation))
            pointer.pointee.sample_aspect_ratio = newValue.sampleAspect.av
        }
    }

    /// The frame as the plain format with the same layout and full range, for a `yuvj*` frame — a
    /// second frame over the same pictures (`av_frame_clone`: no pixel is copied) with those two
    /// fields changed (see `ColourPolicy.plainFormats`) — or the frame itself for any other format.
    /// This frame is not written to.
    package func plainJPEGFormat() throws(FFmpegError) -> VideoFrame {
        guard let plain = PixelFormat(rawValue: pointer.pointee.format).plainForJPEG else { return self }
        let copy = try clone()
        copy.pointer.pointee.format = plain.rawValue
        copy.pointer.pointee.color_range = AVCOL_RANGE_JPEG
        return copy
    }
}

extension PixelFormat {
    /// The plain format a `yuvj*` one is relabelled to, or nil for any other format.
    package var plainForJPEG: PixelFormat? {
        ColourPolicy.plainFormat(forJPEG: name).flatMap { PixelFormat(name: $0) }
    }

    /// Whether the format holds RGB rather than YUV or grey. The corresponding C function is
    /// `av_pix_fmt_desc_get`.
    package var isRGB: Bool {
        guard let d = av_pix_fmt_desc_get(av) else { return false }
        return d.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
    }
}
