import Foundation
import Media
import RecCore

/// An X server's screen, a region of it or one window, grabbed by libavdevice's x11grab
/// (`ScreenGrab`) at `--fps` and kept as `FramePacing` says: changes at their own times, the
/// last picture again at least once a second while nothing changes, or every grab for a
/// constant-rate file.
///
/// A second connection of its own (`X11Display`) asks the server after every grab whether it
/// is still there and whether the screen (or window) changed size; a new size reopens the grab,
/// and its pictures are scaled to the size the session started with. The server going away
/// ends the recording with a message saying so.
///
/// Times: x11grab stamps each picture when it grabs it; that instant is moved onto
/// CLOCK_MONOTONIC (the `clock` capability, which the sound is placed by) and the session's
/// time 0 is the first picture's.
package final class X11ScreenSource: FrameSource, SourceClock {
    package struct Settings: Sendable, Equatable {
        /// Which screen, region or window; its `display` is filled in (`ScreenChoice`).
        package var target: X11Target
        /// Grabs a second, and the most pictures a second the recording keeps.
        package var fps: Int
        /// Whether the pointer is drawn into the pictures (`--cursor`).
        package var cursor: Bool
        package var pacing: FramePacing.Mode
        /// The preset's keyframe interval: repeats come at least this often.
        package var keyframeSeconds: Double
        /// The pixel format the pictures are handed on in, converted on the capture thread (the
        /// encoder's, e.g. yuv420p); nil hands them on as grabbed (bgr0), for the encode thread
        /// to convert. A 1080p picture is then 3 MB rather than 8 MB in the queue before the
        /// encoder, and the conversion runs beside the encoding of the picture before.
        package var pixelFormat: PixelFormat?

        package init(target: X11Target, fps: Int = 30, cursor: Bool = true, pacing: FramePacing.Mode = .changes,
                    keyframeSeconds: Double = 1, pixelFormat: PixelFormat? = nil) {
            self.target = target
            self.fps = fps
            self.cursor = cursor
            self.pacing = pacing
            self.keyframeSeconds = keyframeSeconds
            self.pixelFormat = pixelFormat
        }
    }

    package let settings: Settings
    private let displayName: String
    private var display: X11Display?
    private var grab: ScreenGrab?
    /// The screen's or window's size when the grab opened.
    private var grabbedSize: (width: Int, height: Int) = (0, 0)
    private var pacing: FramePacing
    private var sessionFormat = VideoFormat(width: 0, height: 0, pixelFormat: .none)
    private var scaler: Scaler?
    /// The last recorded picture as grabbed, which the next grabs are compared with.
    private var lastRecorded: VideoFrame?
    private var sequence: Int64 = 0
    private var clock = GrabClock()
    /// CLOCK_MONOTONIC nanoseconds of session time 0 (the first picture's grab).
    package private(set) var monotonicEpoch: UInt64?
    /// How many times the screen changed size while recording.
    package private(set) var sizeChanges = 0

    package init(settings: Settings) {
        self.settings = settings
        self.displayName = settings.target.display ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? ":0"
        self.pacing = FramePacing(mode: settings.pacing, maxRate: settings.fps, keyframeSeconds: settings.keyframeSeconds)
    }

    package var format: VideoFormat { sessionFormat }
    package var nominalFrameRate: Rational? { Rational(Int32(settings.fps), 1) }
    package var description: String { "X11 screen \(settings.target)" + (settings.target.display == nil ? " (\(displayName))" : "") }
    package var droppedFrames: Int { 0 }
    /// Pictures arrive in real time (a grab waits for its interval), stamped on a clock the
    /// sound can follow; they come unevenly (changes, then one a second), so keyframes are
    /// placed by time.
    package var capabilities: SourceCapabilities { SourceCapabilities(isLive: true, clock: self, keyframesByTime: true) }
    /// Pictures kept because they changed, kept again while nothing changed, and grabs left out.
    package var pacingCounts: (changes: Int, repeats: Int, skipped: Int) { (pacing.changes, pacing.repeats, pacing.skipped) }

    /// Connects to the server and checks the window or region against it, without grabbing:
    /// a wrong display, window or region fails before the recording starts.
    package func check() throws(RecError) {
        let display = try connected()
        _ = try currentSize(display)
    }

    package func start() throws(RecError) {
        guard grab == nil else { return }
        let display = try connected()
        let size = try currentSize(display)
        try open(size: size, display: display)
        // Encoders of 4:2:0 want even sizes: a window 301 pixels wide is recorded 300 wide.
        sessionFormat = VideoFormat(width: (grab?.format.width ?? 0) / 2 * 2, height: (grab?.format.height ?? 0) / 2 * 2,
                                    pixelFormat: settings.pixelFormat ?? grab?.format.pixelFormat ?? .none)
    }

    package func nextFrame() throws(RecError) -> VideoFrame? {
        while true {
            guard let grab, let display else { return nil }
            let grabbed: (frame: VideoFrame, pts: Int64)
            do {
                grabbed = try grab.next()
            } catch {
                try reopenAfter(failure: error, display: display)
                continue
            }
            guard let size = display.size(of: settings.target.window) else { throw gone(display) }
            if size != grabbedSize {
                sizeChanges += 1
                try open(size: size, display: display)
                continue
            }
            let time = clock.sessionTime(pts: grabbed.pts, timeBase: grab.timeBase)
            if monotonicEpoch == nil { monotonicEpoch = clock.epoch }
            let changed = lastRecorded.map { !Self.samePicture(grabbed.frame, $0) } ?? true
            guard pacing.decide(at: time, changed: changed) == .record else { continue }
            lastRecorded = grabbed.frame
            let frame: VideoFrame
            do {
                frame = grabbed.frame.format == sessionFormat ? try grabbed.frame.clone() : try scaled(grabbed.frame)
            } catch {
                throw error.recError("converting the screen's picture to \(sessionFormat) failed")
            }
            frame.captureTime = .microseconds(time)
            frame.sequence = sequence
            sequence += 1
            return frame
        }
    }

    package func stop() {
        grab = nil
        display = nil
        scaler = nil
        lastRecorded = nil
    }

    // MARK: - The server, its size, the grab

    private func connected() throws(RecError) -> X11Display {
        if let display { return display }
        let display = try X11Display(name: displayName)
        self.display = display
        return display
    }

    /// The size of what is recorded (the window, or the screen the region must lie in).
    private func currentSize(_ display: X11Display) throws(RecError) -> (width: Int, height: Int) {
        guard let size = display.size(of: settings.target.window) else {
            if let window = settings.target.window, display.isConnected {
                throw .usage("there is no window 0x\(String(window, radix: 16)) on the X display \(displayName); "
                             + "find its id with xwininfo or xdotool search, e.g. --source x11:window=$(xdotool getactivewindow)")
            }
            throw gone(display)
        }
        if let region = settings.target.region, settings.target.window == nil, grab == nil,
           !region.fits(width: size.width, height: size.height) {
            throw .usage("the region \(region.width)x\(region.height) at +\(region.x),\(region.y) does not fit the screen of \(displayName), "
                         + "which is \(size.width)x\(size.height); give a region inside it, e.g. x11:+0,0/\(size.width / 2 * 2)x\(size.height / 2 * 2)")
        }
        return size
    }

    /// Opens (or reopens) the grab for a screen or window of `size`: the region, cut to the
    /// screen when the screen shrank below it, or all of it.
    private func open(size: (width: Int, height: Int), display: X11Display) throws(RecError) {
        grab = nil
        var region: ScreenRegion?
        if settings.target.window == nil {
            let asked = settings.target.region ?? ScreenRegion(x: 0, y: 0, width: size.width, height: size.height)
            region = asked.fitted(width: size.width, height: size.height)
        }
        let request = ScreenGrab.Request(display: displayName, region: region, window: settings.target.window,
                                         fps: settings.fps, cursor: settings.cursor)
        do {
            grab = try ScreenGrab(request)
        } catch {
            if !display.isConnected { throw gone(display) }
            throw .runtime("cannot grab the screen of the X display \(displayName) (x11grab); is it an X server rec may read?",
                           cause: error.description)
        }
        grabbedSize = size
        lastRecorded = nil
    }

    /// A grab that failed: the server went away, or the screen changed under it (a smaller size
    /// makes x11grab's next picture fail), which reopens it.
    private func reopenAfter(failure: FFmpegError, display: X11Display) throws(RecError) {
        guard display.isConnected, let size = display.size(of: settings.target.window) else { throw gone(display) }
        guard size != grabbedSize else {
            throw .runtime("grabbing the screen of the X display \(displayName) failed", cause: failure.description)
        }
        sizeChanges += 1
        try open(size: size, display: display)
    }

    private func gone(_ display: X11Display) -> RecError {
        if let window = settings.target.window, display.isConnected {
            return .runtime("the window 0x\(String(window, radix: 16)) on \(displayName) was closed; the recording ends with its last picture")
        }
        return .runtime("the X display \(displayName) went away (its X server ended or closed the connection); "
                        + "the recording ends with its last picture")
    }

    /// The picture in the session's size and pixel format. Into YUV, with the range and matrix
    /// the encoder would give an RGB source (`ColourPolicy`), so the encoder converts nothing.
    private func scaled(_ frame: VideoFrame) throws(FFmpegError) -> VideoFrame {
        let scaler: Scaler
        if let reusable = self.scaler, reusable.input == frame.format {
            scaler = reusable
        } else if sessionFormat.pixelFormat.isRGB {
            scaler = try Scaler(from: frame.format, to: sessionFormat)
        } else {
            let grabbed = frame.colour
            let target = ColourPolicy.target(source: grabbed, sourceIsRGB: frame.format.pixelFormat.isRGB, targetIsRGB: false, sameLayout: false)
            scaler = try Scaler(from: frame.format, to: sessionFormat, colour: (grabbed, target))
        }
        self.scaler = scaler
        return try scaler.scale(frame)
    }

    /// Whether two grabs hold the same pixels (a full comparison, row by row: a moved pointer
    /// or a blinking caret is a change).
    static func samePicture(_ a: VideoFrame, _ b: VideoFrame) -> Bool {
        let format = a.format
        guard format == b.format, let pa = a.plane(0), let pb = b.plane(0) else { return false }
        let rowBytes = min(pa.bytesPerRow, pb.bytesPerRow, format.width * 4)
        for row in 0..<format.height where memcmp(pa.base + row * pa.bytesPerRow, pb.base + row * pb.bytesPerRow, rowBytes) != 0 {
            return false
        }
        return true
    }
}
