import RecCore
import VideoDevices

/// The frame intervals (seconds per frame) a camera offers at one size: a list (`V4L2_FRMIVAL_TYPE_DISCRETE`)
/// or a range (`STEPWISE`, or `CONTINUOUS` with a step of 1/∞ written as `step == nil`).
package enum FrameIntervals: Hashable, Sendable {
    case discrete([Rational])
    case stepwise(min: Rational, max: Rational, step: Rational?)

    /// The highest frame rate offered, in frames per second.
    package var maxRate: Double {
        switch self {
        case .discrete(let list): list.map { 1 / $0.doubleValue }.max() ?? 0
        case .stepwise(let min, _, _): 1 / min.doubleValue
        }
    }
}

/// One size a format offers and the intervals at that size.
package struct SizeMode: Hashable, Sendable {
    package var size: FrameSize
    package var intervals: FrameIntervals

    package init(size: FrameSize, intervals: FrameIntervals) {
        self.size = size
        self.intervals = intervals
    }
}

/// The sizes a format offers: a list of sizes (`V4L2_FRMSIZE_TYPE_DISCRETE`), or a range
/// (`STEPWISE`; `CONTINUOUS` is a range with a step of 1x1), with the intervals measured at the
/// largest size (the slowest, so a safe estimate for smaller ones).
package enum FrameSizes: Hashable, Sendable {
    case discrete([SizeMode])
    case stepwise(min: FrameSize, max: FrameSize, step: FrameSize, intervals: FrameIntervals)
}

/// One pixel format a camera offers (`VIDIOC_ENUM_FMT`) and its sizes.
package struct CameraFormat: Hashable, Sendable {
    package var fourcc: FourCC
    /// The driver's description, e.g. "Motion-JPEG".
    package var name: String
    package var isCompressed: Bool
    package var sizes: FrameSizes

    package init(fourcc: FourCC, name: String, isCompressed: Bool, sizes: FrameSizes) {
        self.fourcc = fourcc
        self.name = name
        self.isCompressed = isCompressed
        self.sizes = sizes
    }
}

/// A video capture device as `rec devices` shows it.
package struct CameraInfo: Hashable, Sendable {
    /// The node, e.g. "/dev/video0".
    package var path: String
    /// The /dev/v4l/by-id link to it, which survives replugging into another port; nil if none.
    package var stablePath: String?
    /// `v4l2_capability.card`, e.g. "HD Pro Webcam C920".
    package var card: String
    package var driver: String
    package var busInfo: String
    /// The node's own capabilities (`device_caps` when the driver reports them).
    package var capabilities: UInt32
    package var formats: [CameraFormat]
    /// Its controls with their current values (`VIDIOC_QUERY_EXT_CTRL`); see V4L2Controls.
    package var controls: [CameraControl] = []

    package init(path: String, stablePath: String?, card: String, driver: String, busInfo: String,
                capabilities: UInt32, formats: [CameraFormat]) {
        self.path = path
        self.stablePath = stablePath
        self.card = card
        self.driver = driver
        self.busInfo = busInfo
        self.capabilities = capabilities
        self.formats = formats
    }
}
