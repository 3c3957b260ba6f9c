import RecCore
import VideoDevices

/// What the user asked a camera for: `--size`, `--fps`, `--pixel-format`. Nil means "choose".
public struct CameraRequest: Hashable, Sendable {
    public var size: FrameSize?
    /// Frames per second, e.g. 30/1 or 30000/1001.
    public var frameRate: Rational?
    public var pixelFormat: FourCC?
    /// Fail instead of falling back when the camera lacks `size`.
    public var exactSize: Bool

    public init(size: FrameSize? = nil, frameRate: Rational? = nil, pixelFormat: FourCC? = nil, exactSize: Bool = false) {
        self.size = size
        self.frameRate = frameRate
        self.pixelFormat = pixelFormat
        self.exactSize = exactSize
    }
}

/// One mode a camera streams in: pixel format, size and frame interval.
public struct CameraMode: Hashable, Sendable, CustomStringConvertible {
    public var fourcc: FourCC
    public var size: FrameSize
    /// Seconds per frame (`v4l2_captureparm.timeperframe`), e.g. 1/30.
    public var interval: Rational

    public init(fourcc: FourCC, size: FrameSize, interval: Rational) {
        self.fourcc = fourcc
        self.size = size
        self.interval = interval
    }

    public var frameRate: Rational { interval.inverted }

    /// "MJPG 1920x1080@30", "YUYV 640x480@29.97".
    public var description: String { "\(fourcc) \(size)@\(formatRate(frameRate.doubleValue))" }
}

/// A chosen mode and what the user should hear about the choice.
public struct NegotiatedMode: Hashable, Sendable {
    public var mode: CameraMode
    /// Warnings: a fallback size, a rate the camera cannot reach.
    public var notes: [String]
}

/// "30", "29.97", "7.5".
func formatRate(_ rate: Double) -> String {
    let rounded = (rate * 100).rounded() / 100
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
}
