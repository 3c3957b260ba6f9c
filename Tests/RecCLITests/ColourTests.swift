import Foundation
import Testing
import TestPool

/// Colour and aspect carried end to end: real files made by the ffmpeg CLI with real colour
/// properties, recorded with `rec record --source file:…` into MP4 and Matroska, and the output's
/// stream read back with ffprobe. Lossless means lossless: an MJPEG camera's full-range yuvj422p
/// comes out of the lossless preset with the same decoded pixels.
@Suite(.blocking) struct ColourTests {
    struct Source: CustomStringConvertible, Sendable {
        var name: String
        var ffmpeg: [String]
        var ext = "mp4"
        var description: String { name }
    }

    static let sources: [Source] = [
        Source(name: "bt601-full", ffmpeg: ["-vf", "scale=out_range=full:out_color_matrix=bt601,format=yuv420p",
                                            "-color_range", "pc", "-colorspace", "bt470bg",
                                            "-color_primaries", "bt470bg", "-color_trc", "smpte170m",
                                            "-c:v", "libx264", "-preset", "ultrafast"]),
        Source(name: "bt709-limited", ffmpeg: ["-vf", "scale=out_range=tv:out_color_matrix=bt709,format=yuv420p",
                                               "-color_range", "tv", "-colorspace", "bt709",
                                               "-color_primaries", "bt709", "-color_trc", "bt709",
                                               "-c:v", "libx264", "-preset", "ultrafast"]),
        Source(name: "anamorphic", ffmpeg: ["-vf", "setsar=4/3,format=yuv420p", "-c:v", "libx264", "-preset", "ultrafast"]),
        // FFV1 has no aspect ratio of its own: only the container (Matroska's display size) says.
        Source(name: "anamorphic-container", ffmpeg: ["-vf", "setsar=4/3,format=yuv420p", "-color_range", "pc",
                                                      "-colorspace", "bt709", "-c:v", "ffv1"], ext: "mkv"),
    ]

    static let keys = ["color_range", "color_space", "color_primaries", "color_transfer", "sample_aspect_ratio"]

    @Test(arguments: sources, ["mp4", "mkv"])
    func recordingKeepsTheSourcesColourAndAspect(source: Source, ext: String) throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = "\(folder)/\(source.name).\(source.ext)"
        try Self.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-frames:v", "15"] + source.ffmpeg + [input])
        let output = "\(folder)/out.\(ext)"
        let result = try RecBinary.run(["record", "--source", "file:\(input)", "--pace", "off", "-o", output])
        try #require(result.status == 0, "\(result.error)")
        let expected = try Self.probe(input)
        let got = try Self.probe(output)
        for key in Self.keys {
            #expect(got[key] == expected[key], "\(source.name) → .\(ext): \(key) \(got[key] ?? "none") ≠ source's \(expected[key] ?? "none")")
        }
    }

    @Test func losslessPresetKeepsFullRangeMJPEGPixels() throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = "\(folder)/camera.mkv"
        try Self.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-frames:v", "10",
                         "-vf", "scale=out_range=full,format=yuvj422p", "-c:v", "mjpeg", "-q:v", "3", input])
        let output = "\(folder)/lossless.mkv"
        let result = try RecBinary.run(["record", "--source", "file:\(input)", "--preset", "lossless", "--pace", "off", "-o", output])
        try #require(result.status == 0, "\(result.error)")
        #expect(try Self.probe(output)["color_range"] == "pc")
        // Decoded pixels as they come (yuvj422p and yuv422p have the same layout): byte for byte.
        #expect(try Self.pixelDigest(output) == (try Self.pixelDigest(input)))
    }

    static func ffmpeg(_ arguments: [String]) throws {
        _ = try tool("/usr/bin/ffmpeg", ["-v", "error", "-y"] + arguments)
    }

    /// The first video stream's colour and aspect fields, as ffprobe names them.
    static func probe(_ path: String) throws -> [String: String] {
        let text = try tool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                 "stream=" + keys.joined(separator: ","), "-of", "default=noprint_wrappers=1", path])
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { out[parts[0]] = parts[1] }
        }
        return out
    }

    static func pixelDigest(_ path: String) throws -> String {
        try tool("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-map", "0:v", "-f", "md5", "-"])
    }

    static func tool(_ path: String, _ arguments: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw CocoaError(.fileReadUnknown, userInfo: ["tool": "\(path) \(arguments)"]) }
        return String(decoding: data, as: UTF8.self)
    }
}
