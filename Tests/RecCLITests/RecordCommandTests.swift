import Foundation
import Media
import Testing
import TestPool

/// `rec record` through the real binary: what it writes is read back frame by frame.
@Suite(.blocking) struct RecordCommandTests {
    static let builtinPresets = ["camera-copy", "default", "lossless", "mjpeg", "nvenc", "pi", "quality", "sepia", "small", "vaapi"]
    static let codecs = ["libx264": "h264", "ffv1": "ffv1", "mjpeg": "mjpeg", "libvpx-vp9": "vp9"]

    @Test(arguments: ["mp4", "mkv"])
    func framesWritesExactlyThatManyFrames(ext: String) throws {
        let folder = try RecFolder()
        let result = try folder.rec(["record", "--source", "test:320x240@30", "--frames", "45", "--pace", "off", "-o", "out.\(ext)"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("recorded \(folder.file("out.\(ext)"))\n  45 frames in 0:01.500"), "\(result.output)")
        let report = try FrameReader.read(path: folder.file("out.\(ext)"))
        #expect(report.frames.map(\.stamp) == RecFolder.stamps(0..<45))
        #expect(RecFolder.isSteady(report.frames.map(\.time.seconds), step: 1.0 / 30, start: 0))
        #expect((report.codecName, report.width, report.height) == ("h264", 320, 240))
    }

    @Test(arguments: [("1s", 30), ("500ms", 15), ("2s", 60)])
    func durationStopsAfterThatMuchTime(duration: String, frames: Int) throws {
        let folder = try RecFolder()
        let result = try folder.rec(["record", "--source", "test:320x240@30", "--duration", duration, "--pace", "off", "-o", "d.mkv"])
        #expect(result.status == 0, "\(result.error)")
        #expect(try folder.stamps("d.mkv") == RecFolder.stamps(0..<frames))
    }

    @Test func jsonSummary() throws {
        let folder = try RecFolder()
        let result = try folder.rec(["record", "--source", "test:320x240@30", "--frames", "20", "--pace", "off", "--json", "-o", "j.mp4"])
        #expect(result.status == 0, "\(result.error)")
        let json = try RecFolder.object(result.output)
        #expect(json["state"] as? String == "finished")
        #expect(json["path"] as? String == folder.file("j.mp4"))
        #expect(json["preset"] as? String == "default")
        #expect(json["source"] as? String == "test pattern 320x240@30")
        #expect(json["frames"] as? Int == 20)
        #expect(json["frames_encoded"] as? Int == 20)
        #expect(json["dropped_late"] as? Int == 0)
        #expect(json["dropped_by_source"] as? Int == 0)
        #expect(json["real_frame_rate"] as? Double == 30)
        #expect(abs((json["duration"] as? Double ?? 0) - 20.0 / 30) < 0.001)
        #expect((json["bitrate"] as? Double ?? 0) > 0)
        #expect(json["bytes"] as? Int == folder.size("j.mp4"), "bytes is the size of the finished file")
        #expect(json["error"] == nil)
    }

    /// The stamp is 34 cells of width/34 pixels, so it survives scaling only when both widths are
    /// multiples of 34 (544 → 272); 320 → 160 checks the size alone.
    @Test(arguments: [("test:320x240@30", "scale=160:120", 160, 120, false), ("test:544x408@30", "scale=272:204", 272, 204, true)])
    func filterScalesTheFrames(source: String, filter: String, width: Int, height: Int, stamped: Bool) throws {
        let folder = try RecFolder()
        let result = try folder.rec(["record", "--source", source, "--frames", "12", "--pace", "off", "--filter", filter, "-o", "s.mp4"])
        #expect(result.status == 0, "\(result.error)")
        let report = try FrameReader.read(path: folder.file("s.mp4"))
        #expect((report.width, report.height) == (width, height))
        #expect(report.frames.count == 12)
        if stamped { #expect(report.frames.map(\.stamp) == RecFolder.stamps(0..<12)) }
    }

    /// A file source delivers the file's frames at the file's times, whatever its rate.
    @Test(arguments: [("mp4", "mkv"), ("mkv", "mp4")])
    func fileSourceKeepsTheFilesTiming(input: String, output: String) throws {
        let folder = try RecFolder()
        try folder.record("in.\(input)", frames: 50, source: "test:320x240@25")
        let result = try folder.rec(["record", "--source", "file:in.\(input)", "--pace", "off", "-o", "out.\(output)"])
        #expect(result.status == 0, "\(result.error)")
        let original = try FrameReader.read(path: folder.file("in.\(input)")).frames
        let copy = try FrameReader.read(path: folder.file("out.\(output)")).frames
        #expect(copy.map(\.stamp) == RecFolder.stamps(0..<50))
        #expect(copy.map(\.stamp) == original.map(\.stamp))
        #expect(RecFolder.isSteady(copy.map(\.time.seconds), step: 1.0 / 25, start: 0))
        #expect(zip(copy, original).allSatisfy { abs($0.time.seconds - $1.time.seconds) < 0.001 })
    }

    @Test func presetsListsTheBuiltIns() throws {
        let folder = try RecFolder()
        let result = try folder.rec(["presets", "--json"])
        #expect(result.status == 0, "\(result.error)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        #expect(list.compactMap { $0["name"] as? String } == Self.builtinPresets)
        #expect(list.allSatisfy { $0["source"] as? String == "built-in" })
    }

    /// Each encoding preset writes a few frames into its own container, decodable with the stamps intact.
    /// The hardware presets need a GPU or a Pi's encoder, which test machines lack; HardwareCheckTests
    /// and HardwarePresetListingTests cover them with simulated hardware.
    @Test(arguments: builtinPresets.filter { !["camera-copy", "pi", "vaapi", "nvenc"].contains($0) })
    func presetEncodesToItsContainer(preset: String) throws {
        let folder = try RecFolder()
        let shown = try folder.rec(["presets", "show", preset, "--json"])
        #expect(shown.status == 0, "\(shown.error)")
        let json = try RecFolder.object(shown.output)
        let container = try #require(json["container"] as? String)
        let encoder = try #require(json["encoder"] as? String)
        let file = "p.\(container)"
        let result = try folder.rec(["record", "--source", "test:320x240@30", "--frames", "6", "--pace", "off",
                                     "--preset", preset, "-o", file])
        #expect(result.status == 0, "\(result.error)")
        let report = try FrameReader.read(path: folder.file(file))
        #expect(report.codecName == Self.codecs[encoder])
        #expect(report.frames.count == 6)
        if preset != "sepia" {  // the sepia mix changes the brightness the stamp is read from
            #expect(report.frames.map(\.stamp) == RecFolder.stamps(0..<6))
        }
    }

    @Test func cameraCopyNeedsAnMJPEGCamera() throws {
        let folder = try RecFolder()
        let result = try folder.rec(["record", "--source", "test:320x240@30", "--frames", "5", "--pace", "off",
                                     "--preset", "camera-copy", "-o", "cc.mkv"])
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("rec: this preset stores the source's own compressed frames"), "\(result.error)")
        #expect(result.error.contains("--pixel-format MJPG"), "says how to get MJPEG")
        #expect(result.error.contains("choose a preset that encodes"))
        #expect(try folder.contents() == [])
    }

    @Test func unknownPresetListsTheAvailableOnes() throws {
        let folder = try RecFolder()
        let result = try folder.rec(["record", "--source", "test", "--frames", "5", "--pace", "off", "--preset", "nope", "-o", "n.mkv"])
        #expect(result.status == 64)
        #expect(result.error == "rec: unknown preset 'nope'; available: " + Self.builtinPresets.joined(separator: ", ")
                + " (or give a path to a .json file)\n")
        #expect(try folder.contents() == [])
    }

    @Test(arguments: [["--size", "160x120"], ["--fps", "10"]])
    func sizeAndRateDoNotApplyToAFile(option: [String]) throws {
        let folder = try RecFolder()
        try folder.record("in.mp4", frames: 10)
        let result = try folder.rec(["record", "--source", "file:in.mp4", "--pace", "off", "-o", "out.mkv"] + option)
        #expect(result.status == 64)
        #expect(result.error == "rec: --size and --fps do not apply to a file source, which keeps the file's own size and timing; "
                + "use --filter scale=W:H to resize\n")
        #expect(try folder.contents() == ["in.mp4"])
    }

    struct Mistake: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var message: String
        var testDescription: String { arguments.joined(separator: " ") }

        /// `arguments` after a three-frame recording of test:320x240 into x.mkv, unless they name
        /// their own source or output.
        init(_ arguments: [String], source: String = "test:320x240", output: String = "x.mkv", message: String) {
            self.arguments = ["--source", source, "--frames", "3", "--pace", "off", "-o", output] + arguments
            self.message = message
        }
    }

    static let mistakes: [Mistake] = [
        Mistake(["--duration", "0s"], message: "--duration 0s is not a length of time; use e.g. 10s or 1m30s"),
        Mistake(["--duration", "1x"], message: "'1x' is not a time; use 12s, 1500ms, 1m30s, 1:30 or 01:02:03.250"),
        Mistake(["--fps", "29.97"], message: "--fps 29.97 is not a whole number of frames per second from 1 to 1000"),
        Mistake(["--size", "640x480"], message: "--size 640x480 contradicts --source test:320x240; give the size once"),
        Mistake(["--pixel-format", "MJPG"], message: "--pixel-format MJPG applies only to cameras, not to --source test:320x240; leave it out"),
        Mistake([], output: "x.avi", message: "rec cannot write '.avi' files; use .mp4, .mov, .mkv or .webm"),
        Mistake(["--preset", "mjpeg"], output: "x.webm",
                message: "preset 'mjpeg' makes mjpeg, which a .webm file cannot hold; name the output .mp4, .mov, .mkv or pick another --preset"),
        Mistake([], source: "test:320x240@0", message: "'0' is not a frame rate in 'test:320x240@0'; use a whole number such as 30"),
        Mistake([], source: "webcam", message: "unknown source 'webcam'; use test, test:1280x720@30, file:PATH, a camera such as /dev/video0 (see 'rec devices'), "
                + "a network camera's URL (rtsp://, rtmp://, srt://, http://), screen or x11:DISPLAY"),
    ]

    /// Each mistake exits 64 with a message saying what to do, and writes nothing.
    @Test(arguments: mistakes)
    func mistakeIsAUsageError(mistake: Mistake) throws {
        let folder = try RecFolder()
        let result = try folder.rec(["record"] + mistake.arguments)
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("rec: \(mistake.message)\n"), "\(result.error)")
        #expect(try folder.contents() == [])
    }

    @Test(arguments: [("--frames", "abc", "expected an integer"), ("--pace", "slow", "expected one of realtime, off")])
    func invalidOptionValue(option: String, value: String, expected: String) throws {
        let folder = try RecFolder()
        let arguments = ["record", "--source", "test:320x240", "-o", "x.mkv", option, value] + (option == "--pace" ? [] : ["--pace", "off"])
        let result = try folder.rec(arguments)
        #expect(result.status == 64)
        #expect(result.error == "rec: invalid value '\(value)' for '\(option)': \(expected)\nSee 'rec record --help'.\n")
        #expect(try folder.contents() == [])
    }

    @Test func missingFileSource() throws {
        let folder = try RecFolder()
        let result = try folder.rec(["record", "--source", "file:missing.mp4", "--pace", "off", "-o", "x.mkv"])
        #expect(result.status == 64)
        #expect(result.error == "rec: no such file: \(folder.file("missing.mp4")); check the path given to --source file:\n")
        #expect(try folder.contents() == [])
    }

    /// A frame count below one is a mistake, not a request for one frame.
    @Test(arguments: ["0", "-1"])
    func nonPositiveFrameCountIsAUsageError(frames: String) throws {
        let folder = try RecFolder()
        let result = try folder.rec(["record", "--source", "test:320x240@30", "--frames", frames, "--pace", "off", "-o", "x.mkv"])
        let written = try folder.contents()
        #expect(result.status == 64)
        #expect(written == [])
    }

    @Test func existingOutputIsKeptWithoutForce() throws {
        let folder = try RecFolder()
        let precious = Data("not a video, and it must stay this way".utf8)
        try precious.write(to: URL(fileURLWithPath: folder.file("out.mkv")))
        let arguments = ["record", "--source", "test:320x240@30", "--frames", "8", "--pace", "off", "-o", "out.mkv"]
        let refused = try folder.rec(arguments)
        #expect(refused.status == 64)
        #expect(refused.error == "rec: \(folder.file("out.mkv")) already exists; pass --force to overwrite it, or choose another -o\n")
        #expect(refused.output.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("out.mkv"))) == precious)

        let forced = try folder.rec(arguments + ["--force"])
        #expect(forced.status == 0, "\(forced.error)")
        #expect(try folder.stamps("out.mkv") == RecFolder.stamps(0..<8))
    }

    @Test func missingFolderIsAUsageError() throws {
        let folder = try RecFolder()
        let result = try folder.rec(["record", "--source", "test", "--frames", "5", "--pace", "off", "-o", "no/such/x.mkv"])
        #expect(result.status == 64)
        #expect(result.error == "rec: the folder \(folder.file("no/such")) does not exist; create it or choose another -o\n")
        #expect(try folder.contents() == [])
    }

    @Test func outputThatIsAFolder() throws {
        let folder = try RecFolder()
        try FileManager.default.createDirectory(atPath: folder.file("clips"), withIntermediateDirectories: false)
        let result = try folder.rec(["record", "--source", "test", "--frames", "5", "--pace", "off", "-o", "clips"])
        #expect(result.status == 64)
        #expect(result.error == "rec: \(folder.file("clips")) is a folder; give a file name with -o\n")
    }

    /// A folder nobody may write in (even root cannot create files in /proc), or a "folder" that is a file.
    @Test(arguments: ["/proc/rec-test-unwritable.mkv", "in.mp4/x.mkv"])
    func unwritableFolderFailsClearly(output: String) throws {
        let folder = try RecFolder()
        try folder.record("in.mp4", frames: 5)
        let before = try Data(contentsOf: URL(fileURLWithPath: folder.file("in.mp4")))
        let result = try folder.rec(["record", "--source", "test", "--frames", "5", "--pace", "off", "-o", output])
        let path = output.hasPrefix("/") ? output : folder.file(output)
        #expect(result.status == 1)
        let lines = result.error.split(separator: "\n")
        #expect(lines.first == "rec: cannot create \(path); check the folder exists and is writable")
        #expect(lines.count == 2 && lines[1].hasPrefix("rec: cause: avio_open"), "the runtime failure also names its cause")
        #expect(!result.output.contains("recorded"))
        #expect(try folder.contents() == ["in.mp4"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("in.mp4"))) == before)
    }
}

/// A scratch folder with its own (empty) preset folder, where tests run `rec` and read back what
/// it wrote; removed when the test ends.
final class RecFolder {
    let path: String
    let environment: [String: String]

    init() throws {
        path = try RecBinary.temporaryFolder()
        var env = ProcessInfo.processInfo.environment
        env["XDG_CONFIG_HOME"] = path + "/.config"
        env.removeValue(forKey: "REC_SESSION_CHILD")
        environment = env
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }

    @discardableResult
    func rec(_ arguments: [String]) throws -> RecBinary.Result {
        try RecBinary.run(arguments, in: path, environment: environment)
    }

    /// Records `frames` frames of the stand-in camera (each with its number drawn in) into `name`.
    func record(_ name: String, frames: Int = 90, source: String = "test:320x240@30", preset: String? = nil) throws {
        let result = try rec(["record", "--source", source, "--frames", "\(frames)", "--pace", "off", "-o", name]
                             + (preset.map { ["--preset", $0] } ?? []))
        try #require(result.status == 0, "making \(name): \(result.error)")
    }

    func stamps(_ name: String) throws -> [Int?] {
        try FrameReader.read(path: file(name)).frames.map(\.stamp)
    }

    func size(_ name: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: file(name)))?[.size] as? Int
    }

    /// The visible files, sorted.
    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).filter { !$0.hasPrefix(".") }.sorted()
    }

    static func stamps(_ range: Range<Int>) -> [Int?] { range.map { Optional($0) } }

    static func object(_ json: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "not a JSON object: \(json)")
    }

    /// Times that start at `start` and go up by `step` (to a millisecond).
    static func isSteady(_ times: [Double], step: Double, start: Double) -> Bool {
        guard let first = times.first, abs(first - start) < 0.001 else { return false }
        return zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - step) < 0.001 }
    }
}
