import Glibc
import Media
import RecCore
import VideoDevices

/// A V4L2 camera (a USB webcam, a capture card) as a `FrameSource`.
///
/// `start()` opens the node non-blocking, chooses a mode with `ModeNegotiator`, sets it, reads back
/// what the driver really set (differences go to `notes`), maps `Options.bufferCount` buffers and
/// starts streaming. `nextFrame()` waits for a filled buffer, copies it once into a frame (YUYV,
/// NV12) or decodes it (MJPEG), and hands the buffer straight back to the driver.
///
/// Capture times are the driver's CLOCK_MONOTONIC timestamps (our own clock at dequeue when the
/// driver's are not monotonic), minus the first frame's: 0 is the first frame. If the camera is
/// unplugged, `nextFrame()` throws an error with `isCameraUnplugged`; `reopen(waitingUpTo:)` waits
/// for it to come back and continues the same timeline and sequence numbers.
package final class V4L2Camera: FrameSource {
    /// Tuning that rarely needs changing.
    package struct Options: Sendable {
        /// mmap buffers to ask the driver for (it may give more).
        package var bufferCount: Int
        /// Throw the watchdog error when no frame came for this long.
        package var watchdogSeconds: Double
        /// How long one poll(2) waits before checking the watchdog.
        package var pollMilliseconds: Int32

        package init(bufferCount: Int = 4, watchdogSeconds: Double = 5, pollMilliseconds: Int32 = 250) {
            self.bufferCount = bufferCount
            self.watchdogSeconds = watchdogSeconds
            self.pollMilliseconds = pollMilliseconds
        }
    }

    /// The node or /dev/v4l/by-id link the camera was asked for.
    package let path: String
    package let request: CameraRequest
    package let options: Options
    let system: any VideoDeviceSystem

    /// The device as discovered at `start()`: card, driver, stable path, formats.
    package internal(set) var info: CameraInfo?
    /// The mode the driver really set, after `start()`.
    package internal(set) var mode: CameraMode?
    /// What the user should hear about the mode: fallbacks and what the driver changed.
    package internal(set) var notes: [String] = []
    package internal(set) var format = VideoFormat(width: 0, height: 0, pixelFormat: .none)
    /// Colour and field order from VIDIOC_G_FMT, tagged on every raw frame.
    var signal = CameraSignal.progressive601
    /// After the first start, the mode a reopen must get again (a replug must not change the file's mode).
    var lockedMode: CameraMode?
    /// V4L2_CAP_IO_MC: a media-controller node (Raspberry Pi unicam, ISPs) whose pipeline is set up elsewhere.
    var isMediaController = false
    /// Buffers the driver flagged V4L2_BUF_FLAG_ERROR, and frames that failed to decode.
    package internal(set) var errorFrames = 0
    /// Frames the driver dropped: gaps in the buffers' sequence numbers.
    package internal(set) var sequenceGaps = 0
    /// Camera controls to set at every open, checked against the camera (V4L2Camera+Controls.swift).
    package var controlSettings: [ControlSetting] = []

    var stream: V4L2Stream?
    var decoder: MJPEGDecoder?
    /// Recycled frames for raw modes (one copy per frame, no allocation once warm).
    var framePool: FramePool?
    var layout = RawLayout(bytesPerLine: 0, minimumBytes: 0)
    /// The first frame, held by `start()` for MJPEG to learn the decoded format.
    var pending: (frame: VideoFrame, jpeg: CompressedFrame)?
    /// With alternating fields: the field (V4L2_FIELD_TOP/BOTTOM) the stream's frames start with.
    var firstField: UInt32?
    var clock = CaptureClock()

    /// A camera at `path` ("/dev/video0" or a /dev/v4l/by-id link); nothing is opened until `start()`.
    /// Tests pass a fake driver as `system`.
    package init(path: String, request: CameraRequest = CameraRequest(), options: Options = Options(),
                system: any VideoDeviceSystem = LibV4L2System()) {
        self.path = path
        self.request = request
        self.options = options
        self.system = system
    }

    deinit { stream?.close() }

    /// With alternating fields, two buffers make one frame.
    package var nominalFrameRate: Rational? {
        guard let rate = mode?.frameRate else { return nil }
        return signal.alternateFields ? Rational(rate.num, rate.den * 2) : rate
    }

    /// Gaps in the driver's sequence numbers plus error-flagged or undecodable buffers.
    package var droppedFrames: Int { sequenceGaps + errorFrames }

    /// "/dev/video0 (HD Pro Webcam C920) MJPG 1920x1080@30, BT.601 full".
    package var description: String {
        [path, info.map { "(\($0.card))" }, mode.map { "\($0), \(signal.description)" }].compactMap { $0 }.joined(separator: " ")
    }

    package func start() throws(RecError) {
        guard stream == nil else { return }
        do { try open(path) } catch {
            stop()
            throw error
        }
    }

    /// Stops streaming, unmaps the buffers and closes the device; safe to call more than once.
    package func stop() {
        pending = nil
        stream?.close()
        stream = nil
        decoder = nil
    }

    /// After an unplug or a stall: waits up to `seconds` for the same camera (by its
    /// /dev/v4l/by-id name when it has one, so a new /dev/videoN number does not matter) to come
    /// back, then opens it in the same mode. Transient failures of a camera that is just coming
    /// back (EBUSY, EIO, ETIMEDOUT, no permission yet) are retried until the deadline. Returns
    /// early, closed, as soon as `stop` is released, even mid-wait. Capture times and sequence
    /// numbers continue from before.
    package func reopen(waitingUpTo seconds: Double = 10, stop stopping: Latch = Latch()) throws(RecError) {
        stop()
        let target = info?.stablePath ?? path
        let deadline = system.monotonicMicroseconds() + Int64(seconds * 1_000_000)
        var lastFailure: RecError?
        while !stopping.isReleased {
            if system.videoDeviceNodes().contains(target) || system.stableLinks().contains(where: { $0.link == target }) {
                do throws(RecError) {
                    clock.resume()
                    try open(target)
                    return
                } catch where Self.isTransient(error, at: target) {
                    // Gone again mid-setup, still resetting, or udev has not yet given the new
                    // node its group and permissions: wait and look again.
                    lastFailure = error
                    stop()
                } catch {
                    stop()
                    throw error
                }
            }
            guard system.monotonicMicroseconds() < deadline else {
                throw lastFailure.map { CameraFault.didNotRecover(target, seconds: seconds, $0) }
                    ?? CameraFault.didNotReturn(target, seconds: seconds)
            }
            system.awaitDevices(milliseconds: 250, stop: stopping)
        }
    }

    /// Errors a camera that was just replugged gives while it settles.
    static func isTransient(_ error: RecError, at target: String) -> Bool {
        if error.isCameraUnplugged { return true }
        guard error.location == target else { return false }
        if error.code == .usage { return true }
        guard case .system(let errno) = error.fault else { return false }
        return [EBUSY, EIO, ETIMEDOUT, EACCES, EPERM, ENOENT, EPROTO].contains(errno)
    }
}

/// One compressed frame as the camera sent it (MJPEG), for presets that copy it into the file
/// instead of re-encoding. Owns its bytes.
package struct CompressedFrame: Sendable {
    /// One complete JPEG image.
    package var data: [UInt8]
    /// On the session timeline, as for `VideoFrame.captureTime`.
    package var captureTime: Timestamp
    package var sequence: Int64

    /// The JPEG as a packet for a muxer (every JPEG is a keyframe), timed in microseconds on the
    /// session timeline; `frameDuration` is usually the camera's interval.
    package func encodedPacket(frameDuration: Timestamp, streamIndex: Int = 0) -> EncodedPacket {
        let time = captureTime.rescaled(to: .microseconds).value
        return EncodedPacket(data: data, pts: time, dts: time, duration: frameDuration.rescaled(to: .microseconds).value,
                             timeBase: .microseconds, isKeyframe: true, streamIndex: streamIndex, captureTime: captureTime)
    }
}

/// Where the rows of a raw frame are in a driver buffer.
struct RawLayout {
    var bytesPerLine: Int
    var minimumBytes: Int
}
