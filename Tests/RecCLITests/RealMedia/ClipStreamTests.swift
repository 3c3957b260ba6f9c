import Foundation
import Testing
import TestPool

/// How a clip's streams are laid out and what they carry: audio interleaved with video by time,
/// packet side data and track flags kept, memory that does not grow with the clip, and FFmpeg's
/// own reason in errors.
@Suite(.blocking, .serialized) struct ClipStreamTests {
    /// A source made by the ffmpeg CLI: `seconds` of `testsrc2` with a sine, both tracks default.
    static func source(_ name: String, seconds: Int, size: String = "160x120", video: [String], audio: [String]) throws -> String {
        let path = "\(try RecBinary.temporaryFolder())/\(name)"
        try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=30:duration=\(seconds)",
                                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(Double(seconds) - 0.01)"]
                     + video + audio + ["-disposition:v", "default", "-disposition:a", "default", path])
        return path
    }

    /// (stream type, dts seconds, side data types) of every packet, in file order.
    static func packets(_ path: String) throws -> [(video: Bool, dts: Double, sideData: [String])] {
        let probe = try Tool.run("ffprobe", ["-v", "error", "-show_entries",
                                             "packet=codec_type,dts_time,pts_time,pos:packet_side_data=side_data_type",
                                             "-of", "json", path])
        let json = try JSONSerialization.jsonObject(with: probe.stdout) as? [String: Any]
        let rows = (json?["packets"] as? [[String: Any]]) ?? []
        return rows.map { row -> (Int, (Bool, Double, [String])) in
            let dts = Double(row["dts_time"] as? String ?? "") ?? Double(row["pts_time"] as? String ?? "") ?? 0
            let side = (row["side_data_list"] as? [[String: Any]] ?? []).compactMap { $0["side_data_type"] as? String }
            return (Int(row["pos"] as? String ?? "") ?? 0, (row["codec_type"] as? String == "video", dts, side))
        }.sorted { $0.0 < $1.0 }.map { (video: $0.1.0, dts: $0.1.1, sideData: $0.1.2) }
    }

    /// The longest stretch of one stream's decode time written before the other stream catches up.
    static func worstRun(_ packets: [(video: Bool, dts: Double, sideData: [String])]) -> Double {
        var newest: [Bool: Double] = [:]
        var worst = 0.0
        for p in packets {
            newest[p.video] = max(newest[p.video] ?? -.infinity, p.dts)
            if let v = newest[true], let a = newest[false] { worst = max(worst, abs(v - a)) }
        }
        return worst
    }

    @Test(arguments: [("opus.mkv", ["-c:a", "libopus"]), ("aac.mp4", ["-c:a", "aac"])])
    func audioIsInterleavedWithVideo(name: String, audio: [String]) throws {
        let input = try Self.source("long-\(name)", seconds: 30, video: ["-c:v", "libx264", "-g", "30"], audio: audio)
        for extra in [[], ["--keyframe"]] {
            let output = "\(try RecBinary.temporaryFolder())/clip-\(name)"
            let result = try RecBinary.run(["trim", input, "--from", "2.5s", "--to", "27.5s", "-o", output, "--force"] + extra)
            try #require(result.status == 0, "\(result.error)")
            let packets = try Self.packets(output)
            #expect(packets.contains { !$0.video }, "no audio in the clip")
            let worst = Self.worstRun(packets)
            #expect(worst <= 1.0, "\(name) \(extra): one stream runs \(worst) s ahead of the other in the file")
        }
    }

    @Test func sideDataAndDefaultFlagsAreKept() throws {
        let input = try Self.source("sidedata-opus.mkv", seconds: 4, video: ["-c:v", "libx264", "-g", "30"], audio: ["-c:a", "libopus"])
        let sourceSide = Set(try Self.packets(input).flatMap(\.sideData))
        try #require(sourceSide.contains("Skip Samples"), "the source has no Opus skip samples to keep: \(sourceSide)")
        let output = "\(try RecBinary.temporaryFolder())/sidedata-clip.mkv"
        let result = try RecBinary.run(["trim", input, "--from", "0s", "--to", "4s", "-o", output, "--force"])
        try #require(result.status == 0, "\(result.error)")
        let clipSide = Set(try Self.packets(output).flatMap(\.sideData))
        #expect(clipSide.isSuperset(of: sourceSide), "side data dropped: the source has \(sourceSide), the clip \(clipSide)")
        let probe = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "stream=index:stream_disposition=default",
                                             "-of", "csv=p=0", output])
        let flags = String(decoding: probe.stdout, as: UTF8.self).split(separator: "\n").map { $0.split(separator: ",").last.map(String.init) }
        #expect(flags == ["1", "1"], "default-track flags: \(flags)")
    }

    /// Peak memory of `rec trim` over a 190 MB source stays near what ffmpeg's own copy cut needs,
    /// whatever the clip's length: the old reader held every packet of the clip at once (≈ 310 MiB here).
    @Test func memoryDoesNotGrowWithTheClip() throws {
        let input = try Self.source("big.mkv", seconds: 30, size: "640x360",
                                    video: ["-vf", "noise=alls=30:allf=t", "-c:v", "libx264", "-preset", "ultrafast", "-crf", "10", "-g", "30"],
                                    audio: ["-c:a", "libopus"])
        for (to, ext) in [("28.5s", "mkv"), ("28.5s", "mp4")] {
            let output = "\(try RecBinary.temporaryFolder())/big-clip.\(ext)"
            let peak = "\(try RecBinary.temporaryFolder())/peak.txt"
            let result = try Tool.run("time", ["-f", "%M", "-o", peak, RecBinary.url.path, "trim", input,
                                               "--from", "1.5s", "--to", to, "-o", output, "--force"], check: false)
            try #require(result.status == 0, "\(result.stderr)")
            let kib = Int(try String(contentsOfFile: peak, encoding: .utf8).split(separator: "\n").last ?? "") ?? .max
            #expect(kib < 120 * 1024, "rec trim peaked at \(kib / 1024) MiB for a 27 s cut into .\(ext)")
        }
    }

    @Test func ffmpegsReasonReachesTheUser() throws {
        let whole = try Self.source("whole.mp4", seconds: 2, video: ["-c:v", "libx264"], audio: ["-c:a", "aac"])
        let truncated = "\(try RecBinary.temporaryFolder())/truncated.mp4"
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: truncated))
        let result = try RecBinary.run(["trim", truncated, "--from", "0s", "--to", "1s", "-o", "\(truncated).mkv"])
        #expect(result.status != 0)
        #expect(result.error.contains("moov atom not found"), "\(result.error)")
    }
}
