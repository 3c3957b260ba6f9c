import Foundation
import TestServers

/// What a screen recording holds, decoded again by the ffmpeg CLI: each picture's time, whether
/// it is a keyframe, and its pixels (RGB), so a test can ask what colour a point of the screen
/// had at a time.
struct ScreenFrames {
    struct Frame {
        var time: Double
        var key: Bool
        let width: Int
        let pixels: Data

        /// The colour at (x, y).
        func rgb(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
            let i = (y * width + x) * 3
            return (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
        }

        /// Whether the point is `colour` (within what H.264 4:2:0 keeps of a flat colour).
        func shows(_ colour: Colour, at x: Int, _ y: Int) -> Bool {
            let c = rgb(x, y)
            return abs(c.r - colour.r) + abs(c.g - colour.g) + abs(c.b - colour.b) < 60
        }
    }

    struct Colour: CustomStringConvertible {
        var name: String
        var r: Int, g: Int, b: Int
        var description: String { name }
        static let red = Colour(name: "red", r: 255, g: 0, b: 0)
        static let lime = Colour(name: "lime", r: 0, g: 255, b: 0)
        static let blue = Colour(name: "blue", r: 0, g: 0, b: 255)
        static let yellow = Colour(name: "yellow", r: 255, g: 255, b: 0)
    }

    let frames: [Frame]
    let width: Int
    let height: Int

    /// Every picture of `path`'s first video stream, as ffmpeg decodes it (one per coded picture:
    /// none added or dropped).
    init(_ path: String) throws {
        guard let stream = try NetworkClip.stream("video", in: path), let w = stream["width"] as? Int, let h = stream["height"] as? Int else {
            throw Tool.Failure("\(path) has no video stream")
        }
        width = w
        height = h
        let times = try NetworkClip.frames(path)
        let raw = try Tool.run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough",
                                          "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]).stdout
        let size = w * h * 3
        let count = min(times.count, raw.count / size)
        frames = (0..<count).map { i in
            Frame(time: times[i].time, key: times[i].key, width: w, pixels: raw.subdata(in: (i * size)..<((i + 1) * size)))
        }
    }

    /// The pictures shown from `from` up to `to` (seconds): the one showing at `from`, and those after.
    func showing(from: Double, to: Double) -> [Frame] {
        let before = frames.last { $0.time <= from }
        return (before.map { [$0] } ?? []) + frames.filter { $0.time > from && $0.time < to }
    }
}

/// A screen test's world: a headless X server, and rec run against it in a folder of its own.
final class ScreenWorld {
    let x: XvfbServer
    let folder: String
    let environment: [String: String]

    init(width: Int = 320, height: Int = 240, kind: XvfbServer.Kind = .xvfb, extra: [String: String] = [:]) throws {
        x = try XvfbServer(width: width, height: height, kind: kind)
        folder = try RecBinary.temporaryFolder()
        let runtime = folder + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var env = x.environment()
        env["XDG_RUNTIME_DIR"] = runtime
        env.removeValue(forKey: "REC_SESSION_CHILD")
        environment = env.merging(extra) { _, b in b }
    }

    deinit {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder + "/run/rec")) ?? [] {
            _ = try? rec(["stop", "--session", name])
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    @discardableResult
    func rec(_ arguments: [String]) throws -> RecBinary.Result {
        try RecBinary.run(arguments, in: folder, environment: environment)
    }

    func path(_ name: String) -> String { folder + "/" + name }

    /// The session time of the ring's newest packet (`ring_end` of `rec status --json`), in seconds.
    func ringEnd() throws -> Double {
        let status = NetworkClip.object(try rec(["status", "--json"]).output)
        return NetworkClip.extra(status, "ring_end").flatMap(Double.init) ?? -1
    }

    /// Waits (bounded by a minute) until the session's buffer reaches `seconds` of session time.
    func waitUntil(_ seconds: Double) throws {
        let r = try rec(["status", "--json", "--wait-until", String(format: "%.3fs", seconds), "--timeout", "60s"])
        if r.status != 0 { throw Tool.Failure("the session never reached \(seconds) s: \(r.error)") }
    }
}
