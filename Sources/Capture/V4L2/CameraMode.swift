import RecCore
import VideoDevices

/// What the user asked a camera for: `--size`, `--fps`, `--pixel-format`. Nil means "choose".
package struct CameraRequest: Hashable, Sendable {
    package var size: FrameSize?
    /// Frames per second, e.g. 30/1 or 30000/1001.
    package var frameRate: Rational?
    package var pixelFormat: FourCC?
    /// Fail instead of falling back when the camera lacks `size`.
    package var exactSize: Bool

    package init(size: FrameSize? = nil, frameRate: Rational? = nil, pixelFormat: FourCC? = nil, exactSize: Bool = false) {
        self.size = size
        self.frameRate = frameRate
        self.pixelFormat = pixelFormat
        self.exactSize = exactSize
    }
}

/// One mode a camera streams in: pixel format, size and frame interval.
package struct CameraMode: Hashable, Sendable, CustomStringConvertible {
    package var fourcc: FourCC
    package var size: FrameSize
    /// Seconds per frame (`v4l2_captureparm.timeperframe`), e.g. 1/30.
    package var interval: Rational

    package init(fourcc: FourCC, size: FrameSize, interval: Rational) {
        self.fourcc = fourcc
        self.size = size
        self.interval = interval
    }

    package var frameRate: Rational { interval.inverted }

    /// "MJPG 1920x1080@30", "YUYV 640x480@29.97".
    package var description: String { "\(fourcc) \(size)@\(formatRate(frameRate.doubleValue))" }
}

/// A chosen mode and what the user should hear about the choice.
package struct NegotiatedMode: Hashable, Sendable {
    package var mode: CameraMode
    /// Warnings: a fallback size, a rate the camera cannot reach.
    package var notes: [String]
}

/// "30", "29.97", "7.5".
func formatRate(_ rate: Double) -> String {
    let rounded = (rate * 100).rounded() / 100
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
}
