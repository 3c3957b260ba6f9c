import CV4L2
import RecCore
import VideoDevices

/// The read-only ioctls on one open node: what discovery asks and negotiation reads back.
struct V4L2Queries {
    let system: any VideoDeviceSystem
    let fd: Int32

    /// `VIDIOC_QUERYCAP`: card, driver, bus and the node's own capabilities.
    func capability() -> Result<DeviceCapability, DeviceErrno> { system.capability(fd) }

    /// `VIDIOC_ENUM_FMT` until EINVAL, each with its sizes and intervals. Formats libv4l2 only
    /// emulates (converting in software, `V4L2_FMT_FLAG_EMULATED`) are left out: rec reads the
    /// camera's own formats.
    func formats() -> [CameraFormat] {
        var result: [CameraFormat] = []
        for index in 0..<UInt32(64) {
            var desc = v4l2_fmtdesc()
            desc.index = index
            desc.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
            guard case .success = system.control(fd, CV4L2_VIDIOC_ENUM_FMT, &desc) else { break }
            if desc.flags & CV4L2_FMT_FLAG_EMULATED != 0 { continue }
            let fourcc = FourCC(rawValue: desc.pixelformat)
            result.append(CameraFormat(fourcc: fourcc, name: cString(desc.description),
                                       isCompressed: desc.flags & CV4L2_FMT_FLAG_COMPRESSED != 0,
                                       sizes: sizes(of: fourcc)))
        }
        return result
    }

    /// `VIDIOC_ENUM_FRAMESIZES` for one format.
    func sizes(of fourcc: FourCC) -> FrameSizes {
        var modes: [SizeMode] = []
        for index in 0..<UInt32(256) {
            var e = v4l2_frmsizeenum()
            e.index = index
            e.pixel_format = fourcc.rawValue
            guard case .success = system.control(fd, CV4L2_VIDIOC_ENUM_FRAMESIZES, &e) else { break }
            if e.type == CV4L2_FRMSIZE_TYPE_DISCRETE {
                let size = FrameSize(width: Int(e.discrete.width), height: Int(e.discrete.height))
                modes.append(SizeMode(size: size, intervals: intervals(of: fourcc, at: size)))
            } else {
                let s = e.stepwise
                // A driver bug seen in the wild: a range whose minimum exceeds its maximum offers nothing usable.
                guard s.min_width <= s.max_width, s.min_height <= s.max_height, s.max_width > 0, s.max_height > 0 else {
                    return .discrete([])
                }
                let continuous = e.type == CV4L2_FRMSIZE_TYPE_CONTINUOUS
                let max = FrameSize(width: Int(s.max_width), height: Int(s.max_height))
                return .stepwise(min: FrameSize(width: Int(s.min_width), height: Int(s.min_height)), max: max,
                                 step: continuous ? FrameSize(width: 1, height: 1)
                                     : FrameSize(width: Int(Swift.max(1, s.step_width)), height: Int(Swift.max(1, s.step_height))),
                                 intervals: intervals(of: fourcc, at: max))
            }
        }
        return .discrete(modes)
    }

    /// `VIDIOC_ENUM_FRAMEINTERVALS` for one format and size.
    func intervals(of fourcc: FourCC, at size: FrameSize) -> FrameIntervals {
        var list: [Rational] = []
        for index in 0..<UInt32(64) {
            var e = v4l2_frmivalenum()
            e.index = index
            e.pixel_format = fourcc.rawValue
            e.width = UInt32(size.width)
            e.height = UInt32(size.height)
            guard case .success = system.control(fd, CV4L2_VIDIOC_ENUM_FRAMEINTERVALS, &e) else { break }
            if e.type == CV4L2_FRMIVAL_TYPE_DISCRETE {
                if let r = rational(e.discrete) { list.append(r) }
            } else {
                let s = e.stepwise
                guard let min = rational(s.min), let max = rational(s.max) else { break }
                return .stepwise(min: min, max: max,
                                 step: e.type == CV4L2_FRMIVAL_TYPE_CONTINUOUS ? nil : rational(s.step))
            }
        }
        return .discrete(list)
    }
}

/// A `v4l2_fract` as a `Rational`; nil for a zero or oversized one (some drivers report 0/0).
func rational(_ f: v4l2_fract) -> Rational? {
    guard f.numerator > 0, f.denominator > 0, f.numerator <= UInt32(Int32.max), f.denominator <= UInt32(Int32.max)
    else { return nil }
    return Rational(Int32(f.numerator), Int32(f.denominator))
}

