import Foundation
import Testing
import TestServers

/// What a recording of a stand-in camera holds, read with ffmpeg, ffprobe and mpv (none of rec's
/// own code): the camera's frame counters (`StandInPicture`), the streams, decode errors, and
/// the frame times. The pictures are 160x90, the servers' default.
enum NetworkClip {
    static let width = 160, height = 90
    static let frame = 1.0 / 30

    /// The counter of every frame ffmpeg decodes, in presentation order (pictures of `width` × `height`).
    static func counters(_ path: String, width: Int = NetworkClip.width, height: Int = NetworkClip.height) throws -> [Int] {
        let gray = try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough",
                                           "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        return StandInPicture(width: width, height: height).readAll([UInt8](gray.stdout)).map(\.counter)
    }

    /// The counter of every frame mpv presents with no configuration, written out by `--vo=image`
    /// and read back at the coded size (mpv writes the display size).
    static func mpvCounters(_ path: String, width: Int = NetworkClip.width, height: Int = NetworkClip.height) throws -> [Int] {
        let dir = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Tool.run("mpv", ["--no-config", "--untimed", "--ao=null", "--vo=image", "--vo-image-format=png",
                             "--vo-image-outdir=\(dir)", "--msg-level=all=warn", path])
        guard try FileManager.default.contentsOfDirectory(atPath: dir).contains(where: { $0.hasSuffix(".png") }) else { return [] }
        let gray = try Tool.run("ffmpeg", ["-v", "error", "-i", "\(dir)/%08d.png", "-vf", "scale=\(width):\(height),format=gray",
                                           "-f", "rawvideo", "-"])
        return StandInPicture(width: width, height: height).readAll([UInt8](gray.stdout)).map(\.counter)
    }

    /// Whether `counters` are n, n+1, n+2, … with none lost or repeated.
    static func consecutive(_ counters: [Int]) -> Bool {
        guard let first = counters.first else { return false }
        return counters == Array(first..<(first + counters.count))
    }

    /// Where consecutive counters break: each pair (before, after).
    static func breaks(_ counters: [Int]) -> [(Int, Int)] {
        zip(counters, counters.dropFirst()).filter { $1 != $0 + 1 }
    }

    /// What ffprobe says, at level error, decoding every frame of every stream to the end, and
    /// whether it decoded as many pictures as the file has: empty for a clean file. (Not the
    /// ffmpeg CLI to a null output: across a gap it picks a time base from the file's average
    /// frame rate and then complains of its own rounding as non-monotonic dts.)
    static func decodeErrors(_ path: String) throws -> String {
        let run = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "frame=media_type", "-of", "csv=p=0", path], check: false)
        guard run.status == 0, run.stderr.isEmpty else { return "exit \(run.status): \(run.stderr)" }
        let decoded = String(decoding: run.stdout, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("video") }.count
        let packets = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=flags", "-of", "csv=p=0", path])
        let count = String(decoding: packets.stdout, as: UTF8.self).split(separator: "\n").count
        return decoded == count ? "" : "\(decoded) pictures decoded of \(count) packets"
    }

    /// Expects `path` to decode to its end without an error.
    static func expectDecodes(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let errors = try decodeErrors(path)
        #expect(errors == "", "\(path): \(errors)", sourceLocation: sourceLocation)
    }

    /// ffprobe's streams, as dictionaries (`codec_type`, `codec_name`, `codec_tag_string`, …).
    static func streams(_ path: String) throws -> [[String: Any]] {
        let out = try Tool.run("ffprobe", ["-v", "error", "-show_streams", "-of", "json", path])
        return (try JSONSerialization.jsonObject(with: out.stdout) as? [String: Any])?["streams"] as? [[String: Any]] ?? []
    }

    /// The first stream of `type` ("video", "audio"), or nil.
    static func stream(_ type: String, in path: String) throws -> [String: Any]? {
        try streams(path).first { $0["codec_type"] as? String == type }
    }

    /// The video frames' presentation times, in order, and whether each is a keyframe.
    static func frames(_ path: String) throws -> [(time: Double, key: Bool)] {
        let out = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                           "frame=best_effort_timestamp_time,key_frame", "-of", "csv=p=0", path])
        return String(decoding: out.stdout, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let time = Double(fields[1]) else { return nil }
            return (time, fields[0] == "1")
        }
    }

    /// Each click's distance from its flash (as the sound tests measure them), from the second
    /// flash on: the stand-in cameras' AAC puts the first click in the encoder's priming. `stream`
    /// counts the sound streams from 0.
    static func syncErrors(_ path: String, stream: Int = 0) throws -> [Double] {
        try SoundProbe.syncErrors(in: path, stream: stream).filter { $0.second > 0.5 }.map(\.error)
    }

    /// A JSON object printed by rec.
    static func object(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }

    /// A `--json` status's `extra` field, by name (its values are strings).
    static func extra(_ status: [String: Any], _ key: String) -> String? {
        (status["extra"] as? [String: Any])?[key] as? String
    }
}
