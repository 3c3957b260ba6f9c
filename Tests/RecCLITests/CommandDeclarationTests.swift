import RecCore
import Testing

@testable import RecCLI
@testable import TrimCLI
@testable import RecClient
import TestPool

/// Every registered command, found by walking the tree from `rec`.
private func allCommands(from command: any ParsableCommand.Type = RootCommand.self) -> [any ParsableCommand.Type] {
    [command] + command.configuration.subcommands.flatMap { allCommands(from: $0) }
}

@Suite("Command declarations", .blocking)
struct CommandDeclarationTests {
    @Test func everyCommandIsRegistered() {
        #expect(allCommands().map { $0.configuration.name }.sorted() == [
            "config", "control", "devices", "events", "presets", "probe", "rec", "record", "review", "save", "show", "snapshot", "start", "status", "stop", "trim", "view",
        ])
    }

    @Test("Help sentences end with a period and names are unique", arguments: allCommands().map { $0 as any ParsableCommand.Type })
    func declarations(_ command: any ParsableCommand.Type) {
        #expect(command.configuration.abstract.hasSuffix("."))
        for spec in command.arguments {
            #expect(spec.help.hasSuffix("."), "help for \(spec.displayName)")
            #expect(!spec.name.hasPrefix("-"))
        }
        let names = command.arguments.map(\.name)
        #expect(Set(names).count == names.count)
        let shorts = command.arguments.compactMap(\.short)
        #expect(Set(shorts).count == shorts.count)
    }

    @Test func recordReadsTypedValues() throws {
        let record = try RecordCommand.parse([
            "--source", "test", "--fps=29.97", "--pace", "off", "--filter", "hflip", "--filter", "vflip",
            "--frames", "300", "-o", "out.mkv", "--json",
        ])
        #expect(record.capture.source == "test")
        #expect(record.capture.fps == 29.97)
        #expect(record.capture.filters == ["hflip", "vflip"])
        #expect(record.pace == .off)
        #expect(record.frames == 300)
        #expect(record.output == "out.mkv")
        #expect(record.json && !record.force)
        #expect(try RecordCommand.parse([]).pace == .realtime)
    }

    @Test func trimReadsTypedValues() throws {
        let trim = try TrimCommand.parse(["in.mkv", "--from", "12s", "--to=15s", "-o", "clip.mkv", "--dry-run"])
        #expect(trim.input == "in.mkv")
        #expect(trim.range.from == "12s" && trim.range.to == "15s" && trim.range.last == nil)
        #expect(trim.output == "clip.mkv")
        #expect(trim.dryRun && !trim.keyframe)
    }

    @Test func startDefaults() throws {
        let start = try StartCommand.parse([])
        #expect(start.session == "default")
        #expect(start.buffer == "5m")
        // Not given: 5 s, or 20 s for a network camera (RecordingSetup decides).
        #expect(start.startTimeout == nil)
    }

    /// `rec start` spells the session out again for its detached process through the same
    /// declarations, so the child parses back exactly what the parent was given.
    @Test func startsChildParsesBackTheSameSession() throws {
        let start = try StartCommand.parse([
            "--session", "desk", "--source", "test", "--preset", "small", "--size", "640x480", "--fps", "25",
            "--pixel-format", "MJPG", "--filter", "hflip", "--filter", "vflip", "--control", "gain=3", "--duration", "1m",
            "--audio", "test", "--on-unplug", "wait", "--cursor", "off", "--buffer", "30s", "--buffer-size", "64M", "-o", "/tmp/desk.mkv",
            "--segment", "1h", "--keep", "7d", "--max-disk", "5G", "--http", "8080", "--publish", "srt://127.0.0.1:9000",
            "--start-timeout", "9s", "--on-save", "true", "--usr1-last", "10s", "--notify", "--force",
            "--upload", "backup:cams", "--upload-limit", "2M",
            "--motion", "--motion-mask", "0,0,30%,10%", "--motion-mask", "0.5,0.5,0.1,0.1", "--motion-threshold", "40",
            "--motion-fps", "10", "--on-motion", "save", "--pre-roll", "5s", "--post-roll", "7s", "--min-motion", "1s",
            "--cool-down", "30s", "--max-clip", "5m", "--motion-clips", "/tmp/m-%H.mp4", "--motion-source", "rtsp://cam/sub",
            "--mqtt", "mqtt://broker.local/home",
        ])
        let arguments = start.childArguments(output: "/tmp/desk.mkv")
        #expect(arguments.first == "start")
        let child = try StartCommand.parse(Array(arguments.dropFirst()))
        #expect(child.foreground && !start.foreground)
        #expect(child.capture == start.capture && child.segments == start.segments && child.live == start.live)
        #expect(child.capture.cursor == "off")
        #expect([child.session, child.buffer, child.bufferSize, child.startTimeout, child.usr1Last]
                == [start.session, start.buffer, start.bufferSize, start.startTimeout, start.usr1Last])
        #expect(child.output == start.output && child.onSave == start.onSave)
        #expect(child.notify && child.force && !child.noFile)
        #expect(child.uploads == start.uploads && child.uploads.upload == "backup:cams" && child.uploads.limit == "2M")
        #expect(child.motion == start.motion && child.mqtt == start.mqtt && child.motion.masks.count == 2)
        #expect(try child.motion.configuration() == start.motion.configuration() && child.motion.source == "rtsp://cam/sub")
        // A broker's or motion stream's password goes to the child through its environment, never argv.
        let brokerSecret = try StartCommand.parse(["--motion", "--mqtt", "mqtt://u:xyzzy43@b/x", "--motion-source", "rtsp://u:xyzzy44@cam/sub"])
        #expect(!brokerSecret.childArguments(output: nil).contains { $0.contains("xyzzy43") || $0.contains("xyzzy44") })
        // A destination with a password goes to the child through its environment, never argv.
        let secret = try StartCommand.parse(["--upload", ":sftp,host=h,user=u,pass=xyzzy42:d"])
        #expect(secret.uploads.hidesSecret && !secret.childArguments(output: nil).contains { $0.contains("xyzzy42") })
        let ringOnly = try StartCommand.parse(["--no-file"]).childArguments(output: nil)
        #expect(try StartCommand.parse(Array(ringOnly.dropFirst())).noFile)
    }

    @Test("validate() rejects contradictions", arguments: [
        (TrimCommand.self as any ParsableCommand.Type, ["in.mkv", "--keyframe", "--reencode"]),
        (TrimCommand.self, ["in.mkv", "--last", "2s", "--from", "1s"]),
        (StartCommand.self, ["--no-file", "--output", "a.mkv"]),
    ])
    func contradictions(_ command: any ParsableCommand.Type, _ arguments: [String]) {
        #expect(throws: RecError.self) { try command.parse(arguments) }
    }
}

@Suite("Console", .blocking)
struct ConsoleTests {
    @Test("Colour only on a TTY without NO_COLOR", arguments: [
        (true, [:], true), (true, ["NO_COLOR": "1"], false), (true, ["NO_COLOR": ""], true), (false, [:], false),
    ] as [(Bool, [String: String], Bool)])
    func color(_ isTTY: Bool, _ environment: [String: String], _ expected: Bool) {
        #expect(ConsoleCapture().console(isTTY: isTTY, environment: environment).useColor == expected)
    }

    @Test func captureKeepsStreamsApart() {
        let capture = ConsoleCapture()
        let console = capture.console()
        console.print("out")
        console.printError("err")
        console.writeOutput("more")
        #expect(capture.output == "out\nmore")
        #expect(capture.error == "err\n")
    }
}
