import Foundation
import Capture
import Media
import RecCore
import SessionControl
import VideoDevices

/// Makes the frame source `--source` names, with `--size`, `--fps` and `--pixel-format` applied
/// where the source takes them.
package enum SourceFactory {
    /// What a screen source takes beyond `--fps`.
    package struct ScreenOptions: Equatable {
        /// `--cursor`: the pointer drawn into the pictures.
        package var cursor = true
        /// Every grab kept, for a constant-rate file (a preset that names `fps`).
        package var constantRate = false
        /// The preset's keyframe interval: a static screen is repeated at least this often.
        package var keyframeSeconds = 1.0
        /// The pixel format to convert the grabs to on the capture thread (see
        /// `X11ScreenSource.Settings.pixelFormat`), or nil to leave them to the encoder.
        package var pixelFormat: PixelFormat?
        /// Where `--source screen` looks for the desktop.
        package var environment = ProcessInfo.processInfo.environment

        package init() {}
    }

    /// - Parameters:
    ///   - system: the V4L2 seam; tests pass a fake driver.
    ///   - warn: receives each note about the mode a camera settled on (a fallback size, a rate the
    ///     camera cannot reach, what the driver changed).
    package static func make(_ spec: SourceSpec, size: (width: Int, height: Int)?, fps: Int?, pixelFormat: String? = nil,
                     controls: [ControlSetting] = [],
                     network: NetworkSource.Settings = NetworkSource.Settings(copies: true, keepsSound: true),
                     screen: ScreenOptions = ScreenOptions(),
                     system: any VideoDeviceSystem = LibV4L2System(),
                     warn: (String) -> Void = { _ in }) throws(RecError) -> FrameSource {
        switch spec {
        case .camera, .defaultCamera: break
        case .testPattern, .file, .network, .screen, .pipewire, .waylandScreen, .waylandWindow:
            if let pixelFormat {
                throw .usage("--pixel-format \(pixelFormat) applies only to cameras, not to --source \(spec); leave it out")
            }
            if let first = controls.first {
                throw .usage("camera controls such as \(first.name) apply only to V4L2 cameras, not to --source \(spec); "
                             + "leave out --control (or the preset's \"controls\"), or record from a camera")
            }
        }
        switch spec {
        case .testPattern(let w, let h, let specFPS):
            if let w, let h, let size, (w, h) != size {
                throw .usage("--size \(size.width)x\(size.height) contradicts --source test:\(w)x\(h); give the size once")
            }
            let width = w ?? size?.width ?? 1280
            let height = h ?? size?.height ?? 720
            return TestPatternSource(width: width, height: height, fps: specFPS ?? fps ?? 30)
        case .network(let url):
            if size != nil || fps != nil {
                throw .usage("--size and --fps do not apply to a network camera, which sends its own size and rate; set them in the camera, "
                             + "or use --filter scale=W:H with a preset that encodes")
            }
            // Connected now, as a camera is opened now: a wrong URL, password or port fails
            // before the recording starts.
            let source = NetworkSource(url: url, settings: network)
            try source.start()
            if let note = source.soundNote { warn(note) }
            return source
        case .pipewire(let node):
            return try WaylandScreenSource.opened(.node(node), size: size, fps: fps, keyframeSeconds: screen.keyframeSeconds)
        case .waylandScreen, .waylandWindow:
            return try WaylandScreenSource.openedThroughPortal(size: size, fps: fps, keyframeSeconds: screen.keyframeSeconds,
                                                               window: spec == .waylandWindow, cursor: screen.cursor, warn: warn)
        case .file(let path):
            if size != nil || fps != nil {
                throw .usage("--size and --fps do not apply to a file source, which keeps the file's own size and timing; use --filter scale=W:H to resize")
            }
            return FileSource(path: OutputFile.absolute(path))
        case .screen(let spec):
            return try makeScreen(spec, size: size, fps: fps, options: screen, warn: warn)
        case .camera(let path):
            let request = try CameraFactory.request(size: size, fps: fps, pixelFormat: pixelFormat)
            return try CameraFactory.open(path: path, request: request, controls: controls, system: system, warn: warn)
        case .defaultCamera:
            let request = try CameraFactory.request(size: size, fps: fps, pixelFormat: pixelFormat)
            return try CameraFactory.open(path: CameraFactory.firstCamera(system: system), request: request,
                                          controls: controls, system: system, warn: warn)
        }
    }
}

extension SourceFactory {
    /// The screen `--source screen` or `x11…` names, connected and checked now: a wrong display,
    /// window or region fails before the recording starts.
    package static func makeScreen(_ spec: ScreenSpec, size: (width: Int, height: Int)?, fps: Int?, options: ScreenOptions,
                           warn: (String) -> Void) throws(RecError) -> FrameSource {
        if size != nil {
            throw .usage("--size does not apply to a screen, which is recorded at its own size; record a region with "
                         + "--source x11:+X,Y/WIDTHxHEIGHT, or scale it with --filter scale=W:H")
        }
        switch try ScreenChoice.choose(spec, environment: options.environment) {
        case .wayland(let xwayland):
            // The seam for the ScreenCast portal + PipeWire source (issue 22's Wayland half).
            throw ScreenChoice.waylandNotBuilt(xwayland: xwayland)
        case .x11(let target):
            let source = X11ScreenSource(settings: .init(target: target, fps: fps ?? 30, cursor: options.cursor,
                                                         pacing: options.constantRate ? .constant : .changes,
                                                         keyframeSeconds: options.keyframeSeconds, pixelFormat: options.pixelFormat))
            try source.check()
            if spec == .automatic { warn("--source screen records the X11 display \(target.display ?? "")") }
            return source
        }
    }
}

/// V4L2 cameras for `--source /dev/videoN`, `v4l2:/dev/videoN`, a /dev/v4l/by-id link, or none.
package enum CameraFactory {
    /// Opens the camera now, on the calling thread, so a wrong path, a busy camera or a mode it
    /// lacks fails before the recording starts; then hands each negotiation note to `warn`.
    /// `Recorder` calls `start()` again on its capture thread, which finds it already streaming.
    /// `controls` are checked against the camera and set as it opens (and again at a reopen).
    package static func open(path: String, request: CameraRequest, controls: [ControlSetting] = [], system: any VideoDeviceSystem,
                     warn: (String) -> Void) throws(RecError) -> V4L2Camera {
        let camera = V4L2Camera(path: path, request: request, system: system)
        camera.controlSettings = controls
        try camera.start()
        for note in camera.notes { warn(note) }
        return camera
    }

    /// The first capture device, for a recording without `--source`.
    package static func firstCamera(system: any VideoDeviceSystem) throws(RecError) -> String {
        do {
            // The first camera rec can read: an IR (GREY) node or an empty loopback may come first.
            let cameras = try V4L2Discovery.requireCameras(system: system)
            return (cameras.first { camera in camera.formats.contains { $0.fourcc.isReadable } } ?? cameras[0]).path
        } catch where error.location == nil {
            // Nothing to open at all (an error naming a node is a busy or forbidden camera instead).
            throw .usage("no --source given and no cameras found (no /dev/video* capture device); "
                         + "use --source test for the built-in stand-in camera")
        }
    }

    /// `--size`, `--fps` and `--pixel-format` as a camera request; the camera falls back (with a
    /// note) when it lacks the size or rate.
    package static func request(size: (width: Int, height: Int)?, fps: Int?, pixelFormat: String?) throws(RecError) -> CameraRequest {
        CameraRequest(size: size.map { FrameSize(width: $0.width, height: $0.height) },
                      frameRate: fps.map { Rational(Int32($0), 1) },
                      pixelFormat: try pixelFormat.map { text throws(RecError) in try fourCC(text) })
    }

    /// "YUYV", "yuyv422", "MJPG", "mjpeg", "NV12", or any four-character code such as "H264".
    package static func fourCC(_ text: String) throws(RecError) -> FourCC {
        switch text.lowercased() {
        case "yuyv", "yuyv422", "yuy2": return .yuyv
        case "mjpg", "mjpeg": return .mjpeg
        case "jpeg": return .jpeg
        case "nv12": return .nv12
        default:
            if let code = FourCC(text.uppercased()) { return code }
            throw .usage("'\(text)' is not a pixel format; use YUYV, NV12 or MJPG (see `rec devices` for what the camera offers)")
        }
    }
}
