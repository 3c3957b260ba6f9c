/// What `--source` names: the stand-in camera, a file, a V4L2 device, a network camera or a screen.
package enum SourceSpec: Sendable, Equatable, CustomStringConvertible {
    /// `test` or `test:1280x720@30`: the built-in stand-in camera.
    case testPattern(width: Int?, height: Int?, fps: Int?)
    /// `file:PATH`: any video FFmpeg reads, delivered as if it were a camera.
    case file(path: String)
    /// `/dev/video0`, `v4l2:/dev/video0` or a `/dev/v4l/by-id/…` path.
    case camera(path: String)
    /// No `--source`: the first capture device.
    case defaultCamera
    /// `rtsp://…`, `rtsps://…`, `rtmp://…`, `srt://…`, `http(s)://…`: a network camera or stream,
    /// read through libavformat.
    case network(NetworkURL)
    /// `pipewire:NODE`: a PipeWire video node by name or serial (SourceSpec+PipeWire.swift).
    case pipewire(node: String)
    /// `wayland`: the screen, through the ScreenCast portal (SourceSpec+PipeWire.swift).
    case waylandScreen
    /// `wayland:window`: one window, through the portal (the user, or the portal's backend, picks it).
    case waylandWindow
    /// `screen`, `x11`, `x11::1+0,0/640x480`, `x11:window=ID`: the desktop's screen (ScreenSpec).
    case screen(ScreenSpec)

    package static func parse(_ text: String?) throws(RecError) -> SourceSpec {
        guard let text, !text.isEmpty else { return .defaultCamera }
        if text == "test" { return .testPattern(width: nil, height: nil, fps: nil) }
        if text.hasPrefix("test:") {
            let mode = String(text.dropFirst(5))
            let parts = mode.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count <= 2, let size = try? Self.parseSize(String(parts[0])) else {
                throw .usage("'\(text)' is not a test source; write test or test:WIDTHxHEIGHT@FPS, e.g. test:1280x720@30")
            }
            var fps: Int? = nil
            if parts.count == 2 {
                guard let f = Int(parts[1]), f > 0, f <= 1000 else {
                    throw .usage("'\(parts[1])' is not a frame rate in '\(text)'; use a whole number such as 30")
                }
                fps = f
            }
            return .testPattern(width: size.width, height: size.height, fps: fps)
        }
        if text.hasPrefix("file:") {
            let path = String(text.dropFirst(5))
            guard !path.isEmpty else { throw .usage("'file:' needs a path, e.g. --source file:talk.mp4") }
            return .file(path: path)
        }
        if text.hasPrefix("v4l2:") {
            let path = String(text.dropFirst(5))
            guard !path.isEmpty else { throw .usage("'v4l2:' needs a device, e.g. --source v4l2:/dev/video0 (see 'rec devices')") }
            return .camera(path: path)
        }
        if let pipewire = try parsePipeWire(text) { return pipewire }
        if text.hasPrefix("/dev/") { return .camera(path: text) }
        if text == "screen" { return .screen(.automatic) }
        if text == "x11" { return .screen(.x11(X11Target())) }
        if text.hasPrefix("x11:") { return .screen(.x11(try X11Target.parse(String(text.dropFirst(4))))) }
        if text.hasPrefix("screen:") || text.hasPrefix("wayland") {
            throw .usage("'\(text)' is not a screen source; use screen (the desktop's), x11, x11:DISPLAY, x11:+X,Y/WIDTHxHEIGHT or x11:window=ID")
        }
        if NetworkURL.isNetwork(text) { return .network(try NetworkURL.parse(text)) }
        throw .usage("unknown source '\(NetworkURL.redacting(text))'; use test, test:1280x720@30, file:PATH, a camera such as /dev/video0 "
                     + "(see 'rec devices'), a network camera's URL (rtsp://, rtmp://, srt://, http://), screen or x11:DISPLAY")
    }

    /// A network camera's URL with a user name or password in it, which must not show in `ps`.
    package var hidesCredentials: Bool {
        if case .network(let url) = self { url.hasCredentials } else { false }
    }

    /// Whether this is a network camera or stream (recorded as it comes by default).
    package var isNetwork: Bool {
        if case .network = self { true } else { false }
    }

    /// Whether this is a screen (`screen`, `x11…`).
    package var isScreen: Bool {
        switch self {
        case .screen, .waylandScreen, .waylandWindow: true
        default: false
        }
    }

    /// Parses `WIDTHxHEIGHT` with both sides even and between 16 and 16384.
    package static func parseSize(_ text: String) throws(RecError) -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw .usage("'\(text)' is not a size; write WIDTHxHEIGHT, e.g. 1280x720")
        }
        guard (16...16384).contains(w), (16...16384).contains(h), w % 2 == 0, h % 2 == 0 else {
            throw .usage("size \(text) is out of range; width and height must be even and from 16 to 16384")
        }
        return (w, h)
    }

    package var description: String {
        switch self {
        case .testPattern(let w, let h, let fps):
            if let w, let h { return "test:\(w)x\(h)" + (fps.map { "@\($0)" } ?? "") }
            return "test"
        case .file(let path): return "file:\(path)"
        case .camera(let path): return path
        case .defaultCamera: return "default camera"
        case .network(let url): return url.redacted
        case .pipewire(let node): return "pipewire:\(node)"
        case .waylandScreen: return "wayland"
        case .waylandWindow: return "wayland:window"
        case .screen(let screen): return screen.description
        }
    }
}
