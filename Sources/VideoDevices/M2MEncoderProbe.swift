import CV4L2
import Glibc
import RecCore

/// Finds V4L2 memory-to-memory encoders (a Raspberry Pi's bcm2835-codec, /dev/video11): nodes
/// with V4L2_CAP_VIDEO_M2M or _M2M_MPLANE whose capture queue, the encoded side, offers a
/// codec. What `h264_v4l2m2m` needs, checked before a recording starts or a clip is re-encoded.
/// It asks the kernel directly by default (`KernelDevices`), as FFmpeg's V4L2 M2M codecs do:
/// libv4l2 is for cameras, and `rec-trim` links none.
package enum M2MEncoderProbe {
    /// The nodes whose capture side offers `fourcc` (H264 by default), in node order.
    package static func encoders(offering fourcc: FourCC = .h264, system: any DeviceControl = KernelDevices()) -> [String] {
        system.videoDeviceNodes().filter { path in
            guard case .success(let fd) = system.openDevice(path, flags: O_RDWR | O_NONBLOCK) else { return false }
            defer { system.close(fd) }
            guard case .success(let cap) = system.capability(fd),
                  cap.caps & (CV4L2_CAP_VIDEO_M2M | CV4L2_CAP_VIDEO_M2M_MPLANE) != 0 else { return false }
            let types = cap.caps & CV4L2_CAP_VIDEO_M2M_MPLANE != 0
                ? [CV4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE, CV4L2_BUF_TYPE_VIDEO_CAPTURE] : [CV4L2_BUF_TYPE_VIDEO_CAPTURE]
            return types.contains { offers(fourcc, type: $0, fd: fd, system: system) }
        }
    }

    /// `VIDIOC_ENUM_FMT` on one queue type until EINVAL.
    private static func offers(_ fourcc: FourCC, type: UInt32, fd: Int32, system: any DeviceControl) -> Bool {
        for index in 0..<UInt32(64) {
            var desc = v4l2_fmtdesc()
            desc.index = index
            desc.type = type
            guard case .success = system.control(fd, CV4L2_VIDIOC_ENUM_FMT, &desc) else { return false }
            if desc.pixelformat == fourcc.rawValue { return true }
        }
        return false
    }

    /// The codec family's V4L2 code: "h264" → H264, "hevc" → HEVC; nil for others.
    package static func fourCC(family: String) -> FourCC? {
        switch family {
        case "h264": .h264
        case "hevc": FourCC("HEVC")
        case "vp8": FourCC("VP80")
        default: nil
        }
    }
}
