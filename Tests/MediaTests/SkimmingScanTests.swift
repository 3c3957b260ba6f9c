import Foundation
import Media
import RecCore
import Testing
import TestPool

/// A cut's scan of an MP4 with a complete sample table skims (`Demuxer.Reading.skimming`): it
/// reads the sample table, not the samples, and finds the same packets as a scan that reads every
/// byte. Inputs come from the ffmpeg CLI with x264's default settings (adaptive B-frames) and AAC.
@Suite(.blocking) struct SkimmingScanTests {
    /// 20 s of 320x240 testsrc2 at 30 fps with a 1 kHz tone, keyframes every 2 s; `extra` goes
    /// before the output (`-movflags …`, another sound codec).
    static func source(_ ext: String, sound: [String] = ["-c:a", "aac"], extra: [String] = []) throws -> String {
        let path = Fixtures.temporary(ext)
        try Fixtures.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000",
                             "-t", "20", "-c:v", "libx264", "-g", "60", "-pix_fmt", "yuv420p"] + sound + extra + [path])
        return path
    }

    static func scan(_ path: String, skim: Bool) throws -> (reader: FileClipReader, clip: FileClip) {
        let reader = try FileClipReader(path: path, skim: skim)
        return (reader, try reader.read(from: .microseconds(2_500_000), to: .microseconds(17_500_000)).source)
    }

    @Test func theScanSkimsAndFindsThePacketsAFullReadFinds() throws {
        let path = try Self.source("mp4")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (skimmer, skimmed) = try Self.scan(path, skim: true)
        let (reader, full) = try Self.scan(path, skim: false)
        #expect(skimmer.reading == .skimming)
        #expect(reader.reading == .normal)
        #expect(skimmed.timings.count > 400)
        #expect(skimmed.timings == full.timings)
        #expect(skimmed.tracks.map(\.soundTimings) == full.tracks.map(\.soundTimings))
        #expect(skimmed.tracks.map(\.packetCount) == full.tracks.map(\.packetCount))
        // The sample table and the boxes are read; of the samples, only what the opening probe decoded.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let read = try #require(skimmer.demuxer.bytesRead)
        #expect(read < Int64(size / 5), "read \(read) of \(size) bytes")
    }

    /// The clip from a skimmed scan is the clip from a full one, packet for packet.
    @Test(arguments: ["mp4", "mkv"])
    func theClipIsTheSame(ext: String) throws {
        let path = try Self.source("mp4")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var hashes: [String] = []
        for skim in [true, false] {
            let (_, clip) = try Self.scan(path, skim: skim)
            let container = ContainerFormat(path: "x.\(ext)")!
            let plan = try CutPlanner.plan(packets: clip.timings, timeBase: clip.timeBase, from: .microseconds(2_500_000),
                                           to: .microseconds(17_500_000), strategy: container.hasEditLists ? .editList : .spliceReencode)
            let output = Fixtures.temporary(ext)
            defer { try? FileManager.default.removeItem(atPath: output) }
            _ = try ClipWriter.write(clip, plan: plan, to: output, container: container)
            hashes.append(try Self.packetHashes(output))
        }
        #expect(hashes[0] == hashes[1])
        #expect(hashes[0].split(separator: "\n").count > 600)
    }

    /// Stream information is still read with libavformat's parsers: an interlaced H.264 MP4 keeps
    /// its field order in the clip (without them it came out unknown).
    @Test func theClipKeepsTheFieldOrderParsersFind() throws {
        let path = try Self.source("mp4", extra: ["-flags", "+ildct+ilme", "-x264-params", "tff=1"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (reader, clip) = try Self.scan(path, skim: true)
        #expect(reader.reading == .skimming)
        let plan = try CutPlanner.plan(packets: clip.timings, timeBase: clip.timeBase, from: .microseconds(2_500_000),
                                       to: .microseconds(17_500_000), strategy: .spliceReencode)
        let output = Fixtures.temporary("mkv")
        defer { try? FileManager.default.removeItem(atPath: output) }
        _ = try ClipWriter.write(clip, plan: plan, to: output, container: .mkv)
        #expect(try Self.probe(output, "stream=field_order", stream: "v:0") == "tt")
    }

    /// Files whose packets need libavformat's parser, or whose samples only fragments index, are
    /// read in full.
    @Test func fragmentedOrParsedFilesAreReadInFull() throws {
        let fragmented = try Self.source("mp4", extra: ["-movflags", "frag_keyframe+empty_moov"])
        // Samples in the moov and fragments after it, with a segment index: the moov's count
        // matches the index libavformat has at first, but the rest is in the fragments.
        let indexed = try Self.source("mp4", extra: ["-movflags", "frag_keyframe+default_base_moof+global_sidx", "-frag_duration", "4000000"])
        let mp3 = try Self.source("mp4", sound: ["-c:a", "libmp3lame"])
        let mkv = try Self.source("mkv")
        defer { for p in [fragmented, indexed, mp3, mkv] { try? FileManager.default.removeItem(atPath: p) } }
        for path in [fragmented, indexed, mp3, mkv] {
            let (reader, clip) = try Self.scan(path, skim: true)
            #expect(reader.reading == .normal, "\(path)")
            #expect(clip.timings.count > 400)
        }
    }

    /// One entry of `ffprobe -show_entries` for `stream`, as text.
    static func probe(_ path: String, _ entries: String, stream: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        p.arguments = ["-v", "error", "-select_streams", stream, "-show_entries", entries, "-of", "default=nw=1:nk=1", path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `ffmpeg -f framemd5`-style lines of every packet (stream, pts, dts, duration, size, md5).
    static func packetHashes(_ path: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        p.arguments = ["-v", "error", "-show_entries", "packet=stream_index,pts,dts,duration,size,flags,data_hash", "-show_data_hash", "MD5",
                       "-of", "compact=p=0:nk=1", path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
