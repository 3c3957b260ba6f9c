import Foundation
import RecCore
import Testing

@testable import RecCLI
@testable import RecClient
import TestPool

/// Issue 41: the command lines rec builds for the rec of other boxes (`--host`: save, snapshot,
/// status, stop, control) spell each option from its declaration. For a representative set of
/// command lines typed here, every `--option` of what each box runs must be an option that the
/// command it runs declares, and the whole line must parse back into that command; a renamed or
/// misspelled option fails here rather than on a box.
@Suite("Command lines sent to other boxes", .blocking)
struct ForwardedArgumentsTests {
    static let box = ["--host", "ssh://rec@box1:2222"]
    /// Where a box's command writes its files: `RemoteCommand.Word.inFolder` names are in it.
    static let folder = "/tmp/rec-remote.X"

    /// The command `rec` runs for `name`, found by walking the command tree.
    static func command(named name: String, in command: any ParsableCommand.Type = RootCommand.self) -> (any ParsableCommand.Type)? {
        if command.configuration.name == name { return command }
        for sub in command.configuration.subcommands {
            if let found = Self.command(named: name, in: sub) { return found }
        }
        return nil
    }

    /// The words as a box's rec is given them.
    static func arguments(_ words: [RemoteCommand.Word]) -> [String] {
        words.map { word in
            switch word {
            case .literal(let text): text
            case .inFolder(let name): folder + "/" + name
            }
        }
    }

    /// Each box's save for `rec save LINE --host …`, both ways: clips brought back, and clips kept
    /// on the boxes for `--upload`.
    static func saves(_ line: [String]) throws -> [[String]] {
        let save = try SaveCommand.parse(line + box)
        let wall = try save.range.aligned(now: Timestamp(seconds: Date().timeIntervalSince1970)).utcTexts
        let names = try save.boxSessionNames()
        return [
            arguments(save.boxSaveWords(names: names, from: wall.from, to: wall.to, output: "%s.mp4")),
            save.boxUploadArguments(names: names, range: wall, output: "clips/box1-%s.mp4", upload: "backup:cams"),
        ]
    }

    /// Every command line the boxes are sent for a representative set of typed ones.
    static func forwardedLines() throws -> [[String]] {
        var lines: [[String]] = []
        lines += try saves(["--all", "--last", "2s", "-o", "clips/"])
        lines += try saves(["--session", "a", "--from", "-10s", "--to", "now", "--keyframe", "--clear", "--force"])
        lines += try saves(["--session", "a,b", "--from", "2026-11-29T14:03:05", "--to", "2026-11-29T14:03:35", "-o", "clip-%s.mkv"])
        lines += try saves(["--all", "--last", "30s", "-o", "clips/", "--upload", "backup:cams", "--json"])
        lines.append(arguments(try SnapshotCommand.parse(["--session", "desk", "-o", "stills/"] + box).boxWords))
        let statuses = [
            ["--session", "a"], ["--session", "a", "--wait-frames", "300", "--timeout", "20s"],
            ["--wait-until", "1m30s", "--json"], ["--wait-error", "--timeout", "2s"],
        ]
        for line in statuses {
            let status = try StatusCommand.parse(line + box)
            lines.append(Forwarding.words(status.boxArguments, json: status.json))
        }
        lines.append(try StatusCommand.parse(["--all"] + box).boxListArguments)
        lines.append(try StatusCommand.parse(["--all", "--timeout", "3s"] + box).boxListArguments)
        for json in [false, true] {
            lines.append(Forwarding.words(try StopCommand.parse(["--session", "a"] + box).boxArguments, json: json))
            let control = try CameraControlCommand.parse(["auto_exposure=manual", "exposure_time_absolute=250"] + box)
            lines.append(Forwarding.words(control.boxArguments, json: json))
        }
        return lines
    }

    @Test func everyForwardedOptionIsDeclaredByItsCommand() throws {
        let lines = try Self.forwardedLines()
        #expect(lines.count == 19)
        for line in lines {
            let name = try #require(line.first)
            let target = try #require(Self.command(named: name), "rec has no command '\(name)' (\(line))")
            let declared = Set(target.arguments.filter { $0.kind != .positional }.map(\.displayName))
            for word in line.dropFirst() where word.hasPrefix("--") {
                #expect(declared.contains(word), "'rec \(name)' declares no \(word); the boxes were sent \(line)")
            }
            do {
                _ = try target.parse(Array(line.dropFirst()))
            } catch {
                Issue.record("'rec \(name)' does not take \(line): \(error)")
            }
        }
    }

    /// The lines as they were spelled by hand before (but `--output` for `-o`).
    @Test func linesAreTheOnesTheBoxesWereSentBefore() throws {
        let save = try SaveCommand.parse(["--session", "a,b", "--last", "2s", "--keyframe", "--clear", "--force"] + Self.box)
        let names = try save.boxSessionNames()
        #expect(Self.arguments(save.boxSaveWords(names: names, from: "F", to: "T", output: "%s.mp4")) == [
            "save", "--session", "a,b", "--from", "F", "--to", "T", "--json", "--output", Self.folder + "/%s.mp4",
            "--no-upload", "--keyframe", "--clear", "--host", "local",
        ])
        #expect(save.boxUploadArguments(names: nil, range: ("F", "T"), output: "c/%s.mp4", upload: "b:c") == [
            "save", "--all", "--from", "F", "--to", "T", "--json", "--output", "c/%s.mp4", "--upload", "b:c",
            "--force", "--keyframe", "--clear", "--host", "local",
        ])
        #expect(Self.arguments(try SnapshotCommand.parse(["--session", "d"] + Self.box).boxWords)
                == ["snapshot", "--session", "d", "--output", Self.folder + "/snapshot.jpg", "--host", "local"])
        let status = try StatusCommand.parse(["--wait-frames", "3", "--wait-until", "10s", "--wait-error", "--timeout", "5s"] + Self.box)
        #expect(Forwarding.words(status.boxArguments, json: true) == [
            "status", "--session", "default", "--wait-frames", "3", "--wait-until", "10.0", "--wait-error", "--timeout", "5s",
            "--json", "--host", "local",
        ])
        #expect(try StatusCommand.parse(["--all", "--timeout", "3s"]).boxListArguments
                == ["status", "--all", "--json", "--timeout", "3s", "--host", "local"])
        #expect(try StopCommand.parse(["--session", "a"]).boxArguments == ["stop", "--session", "a"])
        #expect(try CameraControlCommand.parse(["gain=3", "--session", "a"]).boxArguments == ["control", "gain=3", "--session", "a"])
    }
}
