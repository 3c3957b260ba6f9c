import Foundation
import Media
import Testing
import TestPool

/// `rec trim` through the real binary, on 3-second recordings of numbered frames (30 fps,
/// keyframes every second): every clip is decoded and its frame numbers compared.
@Suite(.blocking) struct TrimCommandTests {
    /// A folder holding `in.<ext>`, 90 frames of the stand-in camera.
    static func folder(with ext: String, preset: String? = nil) throws -> RecFolder {
        let folder = try RecFolder()
        try folder.record("in.\(ext)", frames: 90, preset: preset)
        return folder
    }

    struct Cut: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var frames: Range<Int>
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let cuts: [Cut] = [
        Cut(arguments: ["--from", "1s", "--to", "2s"], frames: 30..<60),
        Cut(arguments: ["--from", "1.5s", "--to", "2.5s"], frames: 45..<75),
        Cut(arguments: ["--from", "0:00.5", "--to", "0:01"], frames: 15..<30),
        Cut(arguments: ["--last", "1s"], frames: 60..<90),
        Cut(arguments: ["--last", "10s"], frames: 0..<90),
        Cut(arguments: ["--from", "-1s"], frames: 60..<90),
        Cut(arguments: ["--from=-1.5s", "--to=-0.5s"], frames: 45..<75),
        Cut(arguments: ["--to", "0.1s"], frames: 0..<3),
    ]

    /// Exact cuts: the clip holds exactly the frames in [from, to), starting at time 0.
    @Test(arguments: ["mp4", "mkv"], cuts)
    func exactCut(ext: String, cut: Cut) throws {
        let folder = try Self.folder(with: ext)
        let input = try Data(contentsOf: URL(fileURLWithPath: folder.file("in.\(ext)")))
        let result = try folder.rec(["trim", "in.\(ext)", "-o", "out.\(ext)"] + cut.arguments)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("saved \(folder.file("out.\(ext)"))\n"), "\(result.output)")
        #expect(result.output.contains("(\(cut.frames.count) frames)"))
        let report = try FrameReader.read(path: folder.file("out.\(ext)"))
        #expect(report.frames.map(\.stamp) == RecFolder.stamps(cut.frames))
        #expect(RecFolder.isSteady(report.frames.map(\.time.seconds), step: 1.0 / 30, start: 0))
        // The container says the clip lasts its frames, not a frame more.
        let seconds = try #require(report.duration).seconds
        #expect(abs(seconds - Double(cut.frames.count) / 30) < 0.002, "\(seconds) s")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("in.\(ext)"))) == input, "the input is not touched")
    }

    /// Every encoding preset's recordings cut exactly: B-frames (quality), VP9 in WebM (small),
    /// and all-keyframe MJPEG, each cut between keyframes in its own container.
    @Test(arguments: [("quality", "mp4"), ("quality", "mkv"), ("small", "webm"), ("mjpeg", "mkv")])
    func everyPresetCutsExactly(preset: String, ext: String) throws {
        let folder = try Self.folder(with: ext, preset: preset)
        let result = try folder.rec(["trim", "in.\(ext)", "--from", "1.3s", "--to", "2.6s", "-o", "out.\(ext)"])
        #expect(result.status == 0, "\(result.error)")
        let report = try FrameReader.read(path: folder.file("out.\(ext)"))
        #expect(report.frames.map(\.stamp) == RecFolder.stamps(39..<78))
        #expect(RecFolder.isSteady(report.frames.map(\.time.seconds), step: 1.0 / 30, start: 0))
    }

    /// FFV1 (the lossless preset) cut between keyframes in Matroska: the head is re-encoded and
    /// spliced before the copied packets, so the whole clip must decode.
    @Test func losslessCutsExactly() throws {
        let folder = try Self.folder(with: "mkv", preset: "lossless")
        let result = try folder.rec(["trim", "in.mkv", "--from", "1.3s", "--to", "2.6s", "-o", "out.mkv"])
        #expect(result.status == 0, "\(result.error)")
        let stamps = try? folder.stamps("out.mkv")  // nil when the clip does not decode
        #expect(stamps == RecFolder.stamps(39..<78))
    }

    /// `--reencode` with a preset that keeps the source's pixel format (lossless names none).
    @Test func reencodeWithAPresetWithoutPixelFormat() throws {
        let folder = try Self.folder(with: "mp4")
        let result = try folder.rec(["trim", "in.mp4", "--from", "1.5s", "--to", "2.5s", "--reencode", "--preset", "lossless", "-o", "r.mkv"])
        let stamps = try? folder.stamps("r.mkv")
        #expect(result.status == 0, "\(result.error)")
        #expect(stamps == RecFolder.stamps(45..<75))
    }

    /// The clip's container comes from -o, not from the input.
    @Test(arguments: [("mp4", "mkv"), ("mkv", "mp4"), ("mkv", "mov")])
    func cutIntoAnotherContainer(input: String, output: String) throws {
        let folder = try Self.folder(with: input)
        let result = try folder.rec(["trim", "in.\(input)", "--from", "1.5s", "--to", "2s", "-o", "out.\(output)"])
        #expect(result.status == 0, "\(result.error)")
        #expect(try folder.stamps("out.\(output)") == RecFolder.stamps(45..<60))
    }

    @Test(arguments: ["mp4", "mkv"])
    func keyframeStartsAtThePrecedingKeyframe(ext: String) throws {
        let folder = try Self.folder(with: ext)
        let result = try folder.rec(["trim", "in.\(ext)", "--from", "1.5s", "--to", "2.5s", "--keyframe", "--json", "-o", "k.\(ext)"])
        #expect(result.status == 0, "\(result.error)")
        #expect(try folder.stamps("k.\(ext)") == RecFolder.stamps(30..<75))
        let json = try RecFolder.object(result.output)
        #expect(json["mode"] as? String == "keyframe")
        #expect(json["presented_from"] as? Double == 1)
        #expect(json["requested_from"] as? Double == 1.5)
        #expect(json["frames"] as? Int == 45)
        #expect(json["reencoded"] as? Int == 0)
    }

    /// `--reencode` encodes every frame of the clip with the preset, into any container.
    @Test(arguments: [("mp4", "mkv", "mjpeg", "mjpeg"), ("mkv", "mp4", "default", "h264")])
    func reencodeWithAPreset(input: String, output: String, preset: String, codec: String) throws {
        let folder = try Self.folder(with: input)
        let result = try folder.rec(["trim", "in.\(input)", "--from", "1.5s", "--to", "2.5s", "--reencode", "--preset", preset,
                                     "--json", "-o", "r.\(output)"])
        #expect(result.status == 0, "\(result.error)")
        #expect(try RecFolder.object(result.output)["reencoded"] as? Int == 30)
        let report = try FrameReader.read(path: folder.file("r.\(output)"))
        #expect(report.codecName == codec)
        #expect(report.frames.map(\.stamp) == RecFolder.stamps(45..<75))
        #expect(report.frames.allSatisfy(\.isKeyframe) == (codec == "mjpeg"))
    }

    /// By default every container re-encodes up to the next keyframe; `--edit-list` (MP4) hides
    /// the preroll with an edit list instead.
    @Test(arguments: [
        ("mp4", ["--edit-list"], "exact (edit list)", 15, 0, [1.0]),
        ("mp4", [], "exact (splice)", 0, 15, [2.0]),
        ("mkv", [], "exact (splice)", 0, 15, [2.0]),
    ])
    func jsonReport(ext: String, extra: [String], mode: String, preroll: Int, reencoded: Int, keyframes: [Double]) throws {
        let folder = try Self.folder(with: ext)
        let result = try folder.rec(["trim", "in.\(ext)", "--from", "1.5s", "--to", "2.5s", "--json", "-o", "j.\(ext)"] + extra)
        #expect(result.status == 0, "\(result.error)")
        let json = try RecFolder.object(result.output)
        #expect(json["path"] as? String == folder.file("j.\(ext)"))
        #expect(json["bytes"] as? Int == folder.size("j.\(ext)"))
        #expect(json["frames"] as? Int == 30)
        #expect(json["requested_from"] as? Double == 1.5)
        #expect(json["requested_to"] as? Double == 2.5)
        #expect(json["presented_from"] as? Double == 1.5)
        #expect(json["presented_to"] as? Double == 2.5)
        #expect(json["mode"] as? String == mode)
        #expect(json["preroll_hidden"] as? Int == preroll)
        #expect(json["reencoded"] as? Int == reencoded)
        #expect(json["trailing_hidden"] as? Int == 0)
        #expect(json["keyframes"] as? [Double] == keyframes)
        #expect(try folder.stamps("j.\(ext)") == RecFolder.stamps(45..<75))
    }

    /// `--dry-run` prints the plan, with or without -o, and writes nothing.
    @Test(arguments: [
        ("mp4", ["--edit-list"], ["preroll    15 frames copied and hidden by the edit list", "copy       packets 0–44 from the keyframe at 0:01.000"]),
        ("mkv", [], ["re-encoded  15 frames", "re-encode   0:01.500–0:02.000 decoding packets 0–29"]),
    ])
    func dryRunPrintsThePlanAndWritesNothing(ext: String, extra: [String], lines: [String]) throws {
        let folder = try Self.folder(with: ext)
        for output in [["-o", "clip.\(ext)"], []] {
            let result = try folder.rec(["trim", "in.\(ext)", "--from", "1.5s", "--to", "2.5s", "--dry-run"] + output + extra)
            #expect(result.status == 0, "\(result.error)")
            let printed = result.output.split(separator: "\n").map { String($0).trimmingCharacters(in: .whitespaces) }
            #expect(printed.first?.hasPrefix("requested") == true && printed.first?.hasSuffix("0:01.500–0:02.500") == true)
            #expect(printed.contains { $0.hasPrefix("presented") && $0.hasSuffix("0:01.500–0:02.500 (30 frames)") })
            for line in lines { #expect(printed.contains(line), "\(result.output)") }
            #expect(try folder.contents() == ["in.\(ext)"])
        }
        let json = try folder.rec(["trim", "in.\(ext)", "--last", "1s", "--dry-run", "--json"])
        let plan = try RecFolder.object(json.output)
        #expect(plan["frames"] as? Int == 30)
        #expect(plan["presented_from"] as? Double == 2)
        #expect(plan["path"] == nil && plan["bytes"] == nil, "nothing written, nothing to report")
        #expect(try folder.contents() == ["in.\(ext)"])
    }

    struct Mistake: Sendable, CustomTestStringConvertible {
        var name: String
        var arguments: [String]
        var message: String
        var testDescription: String { name }
    }

    static let mistakes: [Mistake] = [
        Mistake(name: "missing input", arguments: ["nope.mp4", "--from", "1s", "--to", "2s", "-o", "x.mp4"],
                message: "no such file: nope.mp4"),
        Mistake(name: "from after to", arguments: ["in.mp4", "--from", "2s", "--to", "1s", "-o", "x.mp4"],
                message: "the start 0:02.000 is not before the end 0:01.000; --from must come before --to"),
        Mistake(name: "from equals to", arguments: ["in.mp4", "--from", "2s", "--to", "2s", "-o", "x.mp4"],
                message: "the start 0:02.000 is not before the end 0:02.000; --from must come before --to"),
        Mistake(name: "past the end", arguments: ["in.mp4", "--from", "1s", "--to", "5s", "-o", "x.mp4"],
                message: "0:01.000–0:05.000 is outside the recording, which holds 0:00.000–0:03.000; choose times inside it"),
        Mistake(name: "before the start", arguments: ["in.mp4", "--from", "-5s", "--to", "1s", "-o", "x.mp4"],
                message: "-0:02.000–0:01.000 is outside the recording, which holds 0:00.000–0:03.000; choose times inside it"),
        Mistake(name: "unparsable time", arguments: ["in.mp4", "--from", "1x", "--to", "2s", "-o", "x.mp4"],
                message: "'1x' is not a time; use 12s, 1:30, -30s (before the newest frame), now, +20s or 2026-11-29T14:03:05"),
        Mistake(name: "output is the input", arguments: ["in.mp4", "--from", "1s", "--to", "2s", "-o", "in.mp4"],
                message: "the clip cannot overwrite its own input; choose another -o"),
        Mistake(name: "output is the input, forced", arguments: ["in.mp4", "--from", "1s", "--to", "2s", "-o", "./in.mp4", "--force"],
                message: "the clip cannot overwrite its own input; choose another -o"),
        Mistake(name: "unknown extension", arguments: ["in.mp4", "--from", "1s", "--to", "2s", "-o", "x.avi"],
                message: "rec cannot write '.avi' files; use .mp4, .mov, .mkv or .webm"),
        Mistake(name: "no -o", arguments: ["in.mp4", "--from", "1s", "--to", "2s"],
                message: "say where to write the clip with -o FILE (or use --dry-run to see the plan)"),
        Mistake(name: "no range", arguments: ["in.mp4", "-o", "x.mp4"],
                message: "say which part to keep: --from T --to T, or --last D (e.g. --from 1:02 --to 1:30)"),
        Mistake(name: "last with from", arguments: ["in.mp4", "--last", "1s", "--from", "1s", "-o", "x.mp4"],
                message: "--last cannot be combined with --from or --to; give either --last or --from and --to"),
        Mistake(name: "unknown preset", arguments: ["in.mp4", "--last", "1s", "--reencode", "--preset", "nope", "-o", "x.mp4"],
                message: "unknown preset 'nope'; available: camera-copy, default, lossless, mjpeg, nvenc, pi, quality, sepia, small, vaapi (or give a path to a .json file)"),
        Mistake(name: "keyframe with reencode", arguments: ["in.mp4", "--last", "1s", "--keyframe", "--reencode", "-o", "x.mp4"],
                message: "--keyframe copies packets and --reencode re-encodes them; give only one"),
    ]

    /// Each mistake exits 64 with a message saying what to do, and leaves the folder as it was.
    @Test(arguments: mistakes)
    func mistakeIsAUsageError(mistake: Mistake) throws {
        let folder = try Self.folder(with: "mp4")
        let before = try Data(contentsOf: URL(fileURLWithPath: folder.file("in.mp4")))
        let result = try folder.rec(["trim"] + mistake.arguments)
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("rec: \(mistake.message)\n"), "\(result.error)")
        #expect(result.output.isEmpty)
        #expect(try folder.contents() == ["in.mp4"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("in.mp4"))) == before)
    }

    /// A start past the end, with no --to: the message should name what the file holds.
    @Test func startPastTheEndNamesTheAvailableRange() throws {
        let folder = try Self.folder(with: "mp4")
        let result = try folder.rec(["trim", "in.mp4", "--from", "4s", "-o", "x.mp4"])
        #expect(result.status == 64)
        #expect(try folder.contents() == ["in.mp4"])
        #expect(result.error.contains("which holds 0:00.000–0:03.000"), "\(result.error)")
    }

    @Test func existingOutputIsKeptWithoutForce() throws {
        let folder = try Self.folder(with: "mp4")
        let precious = Data("an earlier clip".utf8)
        try precious.write(to: URL(fileURLWithPath: folder.file("clip.mp4")))
        let arguments = ["trim", "in.mp4", "--from", "1s", "--to", "2s", "-o", "clip.mp4"]
        let refused = try folder.rec(arguments)
        #expect(refused.status == 64)
        #expect(refused.error == "rec: \(folder.file("clip.mp4")) already exists; pass --force to overwrite it, or choose another -o\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("clip.mp4"))) == precious)

        let forced = try folder.rec(arguments + ["--force"])
        #expect(forced.status == 0, "\(forced.error)")
        #expect(try folder.stamps("clip.mp4") == RecFolder.stamps(30..<60))
    }

    /// MJPEG copies into MP4 or Matroska, but WebM holds only VP8/VP9/AV1.
    @Test func codecTheContainerCannotHold() throws {
        let folder = try Self.folder(with: "mkv", preset: "mjpeg")
        let refused = try folder.rec(["trim", "in.mkv", "--from", "0.5s", "--to", "1s", "-o", "clip.webm"])
        #expect(refused.status == 64)
        #expect(refused.error.hasPrefix("rec: a .webm file cannot hold mjpeg video; write it as .mp4, .mov, .mkv"), "\(refused.error)")
        #expect(try folder.contents() == ["in.mkv"])

        let copied = try folder.rec(["trim", "in.mkv", "--from", "0.5s", "--to", "1s", "-o", "clip.mp4"])
        #expect(copied.status == 0, "\(copied.error)")
        let report = try FrameReader.read(path: folder.file("clip.mp4"))
        #expect(report.codecName == "mjpeg")
        #expect(report.frames.map(\.stamp) == RecFolder.stamps(15..<30))
    }
}
