import CFFmpeg

/// A borrowed run of samples in one of FFmpeg's formats, read and written as `Float` with full
/// scale ±1: s16, s32, flt and dbl, packed or planar (other formats, and a frame without the
/// plane, read as 0 and ignore writes). Valid only while the memory it points into is.
struct SampleAccess {
    let planes: UnsafePointer<UnsafeMutablePointer<UInt8>?>?
    let format: AudioFormat
    let count: Int

    private var packed: AVSampleFormat { av_get_packed_sample_fmt(AVSampleFormat(rawValue: format.sampleFormat)) }
    private var planar: Bool { av_sample_fmt_is_planar(AVSampleFormat(rawValue: format.sampleFormat)) != 0 }

    /// Where sample `i` of channel `c` sits: its plane and its index there; nil if the frame has
    /// no such plane.
    private func place(_ i: Int, _ c: Int) -> (UnsafeMutableRawPointer, Int)? {
        guard let plane = planes?[planar ? c : 0] else { return nil }
        return (UnsafeMutableRawPointer(plane), planar ? i : i * format.channels + c)
    }

    subscript(i: Int, channel c: Int) -> Float {
        get {
            guard let (base, n) = place(i, c) else { return 0 }
            switch packed {
            case AV_SAMPLE_FMT_S16: return Float(base.assumingMemoryBound(to: Int16.self)[n]) / 32768
            case AV_SAMPLE_FMT_S32: return Float(base.assumingMemoryBound(to: Int32.self)[n]) / 2_147_483_648
            case AV_SAMPLE_FMT_FLT: return base.assumingMemoryBound(to: Float.self)[n]
            case AV_SAMPLE_FMT_DBL: return Float(base.assumingMemoryBound(to: Double.self)[n])
            default: return 0
            }
        }
        nonmutating set {
            guard let (base, n) = place(i, c) else { return }
            let v = Double(max(-1, min(1, newValue)))
            switch packed {
            case AV_SAMPLE_FMT_S16: base.assumingMemoryBound(to: Int16.self)[n] = Int16(clamping: Int((v * 32768).rounded()))
            case AV_SAMPLE_FMT_S32: base.assumingMemoryBound(to: Int32.self)[n] = Int32(clamping: Int64((v * 2_147_483_648).rounded()))
            case AV_SAMPLE_FMT_FLT: base.assumingMemoryBound(to: Float.self)[n] = Float(v)
            case AV_SAMPLE_FMT_DBL: base.assumingMemoryBound(to: Double.self)[n] = v
            default: break
            }
        }
    }

    /// The largest magnitude among the samples, 0…1.
    var peak: Float {
        var peak: Float = 0
        for c in 0..<format.channels {
            for i in 0..<count { peak = max(peak, abs(self[i, channel: c])) }
        }
        return min(peak, 1)
    }
}

extension AudioFrame {
    /// Sets every sample from `value(sample, channel)` (full scale ±1, clipped), whatever the
    /// frame's sample format: how a tone or a test makes sound. The frame must be writable.
    package func fill(_ value: (_ sample: Int, _ channel: Int) -> Float) {
        let samples = SampleAccess(planes: pointer.pointee.extended_data, format: format, count: sampleCount)
        for c in 0..<format.channels {
            for i in 0..<sampleCount { samples[i, channel: c] = value(i, c) }
        }
    }

    /// The largest magnitude among the frame's samples, 0…1.
    package var peak: Float {
        SampleAccess(planes: pointer.pointee.extended_data, format: format, count: sampleCount).peak
    }
}
