import Foundation
import Synchronization
import Testing

/// Sources made by real encoders in their default settings (GOPs of about a second so a cut
/// copies something), by the ffmpeg CLI: 4 s (or `seconds`) of `testsrc2` at 320 × 240 with audio. Each is made
/// once per test run, on first use.
struct RealSource: Sendable, CustomTestStringConvertible {
    var name: String
    var encode: [String]
    var fps: (num: Int, den: Int) = (30, 1)
    var width = 320, height = 240
    var seconds = 4
    /// The lavfi source of the sound, without its duration.
    var sound = "sine=frequency=440:sample_rate=48000"
    var testDescription: String { name }

    static let x264 = RealSource(name: "x264-aac-sar.mp4", encode: [
        "-vf", "setsar=4/3", "-c:v", "libx264", "-g", "30", "-c:a", "aac"], fps: (30000, 1001))
    static let x265 = RealSource(name: "x265-opengop-opus.mkv", encode: [
        "-c:v", "libx265", "-x265-params", "keyint=30:log-level=error", "-c:a", "libopus"])
    static let vp9 = RealSource(name: "vp9-altref-opus.webm", encode: [
        "-c:v", "libvpx-vp9", "-g", "30", "-b:v", "400k", "-c:a", "libopus"])
    static let av1 = RealSource(name: "svtav1-opus.mkv", encode: [
        "-c:v", "libsvtav1", "-g", "30", "-preset", "12", "-c:a", "libopus"])
    static let mjpeg = RealSource(name: "mjpeg-601-full-tmcd.mov", encode: [
        "-c:v", "mjpeg", "-pix_fmt", "yuvj420p", "-color_range", "pc", "-colorspace", "bt470bg",
        "-timecode", "01:00:00:00", "-c:a", "aac"])
    static let tmcd = RealSource(name: "x264-tmcd.mov", encode: [
        "-c:v", "libx264", "-g", "30", "-timecode", "01:00:00:00", "-c:a", "aac"])

    private static let made = Mutex<[String: String]>([:])

    /// The source file, made on first use.
    func path() throws -> String {
        try Self.made.withLock { made throws -> String in
            if let path = made[name] { return path }
            let dir = try RecBinary.temporaryFolder()
            let path = "\(dir)/\(name)"
            try Tool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i",
                                    "testsrc2=size=\(width)x\(height):rate=\(fps.num)/\(fps.den):duration=\(seconds)",
                                    "-f", "lavfi", "-i", "\(sound):duration=\(seconds)"]
                         + encode + ["-shortest", path])
            made[name] = path
            return path
        }
    }

    /// The indices of the frames presented in `[from, to)` seconds.
    func frames(from: Double, to: Double) -> Range<Int> {
        let rate = Double(fps.num) / Double(fps.den)
        func first(atOrAfter t: Double) -> Int { Int((t * rate - 1e-9).rounded(.up)) }
        return first(atOrAfter: from)..<first(atOrAfter: to)
    }

    var frameDuration: Double { Double(fps.den) / Double(fps.num) }

    /// Every frame of the source, as ffmpeg decodes it.
    func signatures() throws -> [Signature] {
        try Players.ffmpeg(try path(), width: width, height: height)
    }
}
