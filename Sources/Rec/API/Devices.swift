import Capture
import Foundation
import RecCore

/// The cameras, microphones and screens this machine has, as `rec devices` lists them.
public enum Devices {
    /// A V4L2 camera and the modes it offers.
    public struct Camera: Sendable, Equatable {
        /// Its device node, such as `/dev/video0`.
        public let device: URL
        /// A device path that stays the same across reboots and replugs (`/dev/v4l/by-id/…`), when udev made one.
        public let stableDevice: URL?
        /// The name the driver gives it.
        public let name: String
        /// The driver, such as `uvcvideo`.
        public let driver: String
        /// Each pixel format, size and frame rates it offers.
        public let modes: [Mode]

        /// The source that records this camera, by its stable path when it has one.
        public var source: CaptureSession.Source { .camera(stableDevice ?? device) }
    }

    /// One pixel format and size of a camera, with the frame rates it offers at that size.
    public struct Mode: Sendable, Equatable {
        /// The camera's pixel format, such as ``CameraPixelFormat/yuyv`` or ``CameraPixelFormat/mjpeg``.
        public let format: CameraPixelFormat
        /// Whether the camera compresses the pictures itself (MJPEG, H.264).
        public let isCompressed: Bool
        /// The picture's width in pixels.
        public let width: Int
        /// The picture's height in pixels.
        public let height: Int
        /// Frames per second, fastest first; for a range, its two ends.
        public let frameRates: [Double]
    }

    /// A sound input.
    public struct Microphone: Sendable, Equatable {
        /// The name its backend (the sound server, or ALSA) knows it by.
        public let name: String
        /// A name for people.
        public let description: String
        /// Whether it is its backend's default input.
        public let isDefault: Bool
        /// The sound input that records it.
        public let sound: CaptureSession.Sound
    }

    /// An X11 screen.
    public struct Screen: Sendable, Equatable {
        /// The X display and screen, as `DISPLAY` spells them (`:0`, `:0.1`).
        public let display: String
        /// The screen's width in pixels.
        public let width: Int
        /// The screen's height in pixels.
        public let height: Int
        /// The source that records it.
        public let source: CaptureSession.Source
    }

    /// The cameras, by node. Empty when there are none.
    ///
    /// - Throws: ``RecError/Kind/deviceBusy`` or ``RecError/Kind/notPermitted`` naming a node
    ///   that exists but cannot be opened.
    public static func cameras() throws(RecError) -> [Camera] {
        let found: [CameraInfo]
        do {
            found = try V4L2Discovery.requireCameras()
        } catch where error.location == nil {
            return []
        } catch {
            throw RecError(error)
        }
        return found.map { c in
            Camera(device: URL(fileURLWithPath: c.path), stableDevice: c.stablePath.map { URL(fileURLWithPath: $0) }, name: c.card,
                   driver: c.driver, modes: c.formats.flatMap(modes))
        }
    }

    /// The sound inputs: the sound server's (PulseAudio, or PipeWire's PulseAudio service) and
    /// ALSA's devices; none on a machine with neither.
    public static func microphones() -> [Microphone] {
        AudioDevices.list().microphones.map {
            Microphone(name: $0.name, description: $0.description, isDefault: $0.isDefault, sound: CaptureSession.Sound(checked: $0.audioSpec))
        }
    }

    /// The X11 screens of the display in `DISPLAY`; none without one.
    public static func screens() -> [Screen] {
        ScreenDevices.list().screens.map {
            Screen(display: $0.display, width: $0.width, height: $0.height, source: CaptureSession.Source(checked: $0.source))
        }
    }

    private static func modes(_ format: CameraFormat) -> [Mode] {
        func rates(_ intervals: FrameIntervals) -> [Double] {
            switch intervals {
            case .discrete(let list): list.map { 1 / $0.doubleValue }.sorted(by: >)
            case .stepwise(let min, let max, _): [1 / min.doubleValue, 1 / max.doubleValue]
            }
        }
        func mode(_ size: FrameSize, _ intervals: FrameIntervals) -> Mode {
            Mode(format: CameraPixelFormat(code: format.fourcc.description), isCompressed: format.isCompressed, width: size.width, height: size.height,
                 frameRates: rates(intervals))
        }
        switch format.sizes {
        case .discrete(let sizes): return sizes.map { mode($0.size, $0.intervals) }
        case .stepwise(let min, let max, _, let intervals): return [mode(max, intervals), mode(min, intervals)]
        }
    }
}
