import Foundation
import RecCore
import Testing

/// What rec asks ssh to run on another box: every word quoted for the login's shell, the bounds
/// on ssh, and the wall-clock range every box reads the same whatever its time zone.
@Suite struct RemoteCommandTests {
    @Test(arguments: [
        ("rec", "rec"),
        ("--from", "--from"),
        ("2026-11-29T13:03:05.250000Z", "2026-11-29T13:03:05.250000Z"),
        ("door,yard", "door,yard"),
        ("", "''"),
        ("two words", "'two words'"),
        ("it's", "'it'\\''s'"),
        ("$(reboot)", "'$(reboot)'"),
        ("`id`;rm -rf ~", "'`id`;rm -rf ~'"),
        ("a\"b\\c", "'a\"b\\c'"),
        ("line\nbreak", "'line\nbreak'"),
        ("*", "'*'"),
    ])
    func quotesEveryWordForAPOSIXShell(text: String, quoted: String) {
        #expect(RemoteCommand.quote(text) == quoted)
    }

    @Test func theCommandLineIsTheProgramAndItsQuotedWords() {
        let command = RemoteCommand(program: "/opt/rec tools/bin/rec", arguments: ["status", "--all", "--json", "--host", "local"])
        #expect(command.shellLine == "'/opt/rec tools/bin/rec' status --all --json --host local")
        let save = RemoteCommand(program: "rec", [.literal("save"), .literal("--all"), .literal("-o"), .inFolder("%s.mp4")])
        #expect(save.shellLine == "rec save --all -o \"$d\"/%s.mp4")
    }

    /// A command that writes files runs in a temporary folder that is removed whatever happens,
    /// keeps its output as report.json there and sends the folder back as tar; its exit status
    /// is rec's.
    @Test func aCommandThatWritesFilesSendsItsFolderBackAndRemovesIt() {
        let line = RemoteCommand(program: "rec", [.literal("snapshot"), .literal("-o"), .inFolder("still.jpg")]).folderShellLine
        #expect(line.hasPrefix("d=$(mktemp -d \"${TMPDIR:-/tmp}/rec-remote.XXXXXX\") || exit 70; "))
        #expect(line.contains("trap 'rm -rf \"$d\"' EXIT; trap 'exit 129' HUP INT TERM PIPE; "))
        #expect(line.contains("rec snapshot -o \"$d\"/still.jpg >\"$d/report.json\"; s=$?; "))
        #expect(line.hasSuffix("tar -C \"$d\" -cf - . || exit 71; exit $s"))
    }

    @Test func sshNeverAsksForAPasswordAndGivesUpOnASilentBox() throws {
        guard case .remote(let host) = try Box.parse("ssh://rec@box1:2222") else { Issue.record("not remote"); return }
        let arguments = RemoteCommand.sshArguments(host, line: "rec status", connectTimeout: 3, config: "/etc/rec/ssh_config")
        #expect(arguments == ["-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=3", "-o", "ServerAliveInterval=10",
                              "-o", "ServerAliveCountMax=3", "-F", "/etc/rec/ssh_config", "-p", "2222", "--", "rec@box1", "rec status"])
        guard case .remote(let bare) = try Box.parse("box2") else { Issue.record("not remote"); return }
        let plain = RemoteCommand.sshArguments(bare, line: "rec stop", connectTimeout: 0, config: nil)
        #expect(plain.suffix(3) == ["--", "box2", "rec stop"] && plain.contains("ConnectTimeout=1") && !plain.contains("-p"))
    }

    @Test func theRemoteProgramIsRECREMOTEOrRec() {
        #expect(RemoteCommand.program(environment: [:]) == "rec")
        #expect(RemoteCommand.program(environment: ["REC_REMOTE": ""]) == "rec")
        #expect(RemoteCommand.program(environment: ["REC_REMOTE": "/opt/rec/bin/rec"]) == "/opt/rec/bin/rec")
    }

    /// The range goes to every box in UTC to the microsecond, and reads back as the same instants.
    @Test(arguments: [Int64(0), 1_764_769_385_250_000, 1_764_769_385_000_001, 951_782_400_999_999, -1, 4_102_444_800_000_000])
    func wallClockTextsReadBackExactly(microseconds: Int64) throws {
        let range = WallClockRange(from: .microseconds(microseconds), to: .microseconds(microseconds + 30_000_000))
        let (from, to) = range.utcTexts
        #expect(from.hasSuffix("Z") && from.count == 27, "\(from)")
        for (text, us) in [(from, microseconds), (to, microseconds + 30_000_000)] {
            for zone in ["UTC", "America/Los_Angeles", "Asia/Kolkata"] {
                let spec = try TimeParser.position(text, timeZone: try #require(TimeZone(identifier: zone)))
                #expect(spec == .wallClock(.microseconds(us)), "\(text) in \(zone)")
            }
        }
    }

    @Test func wallClockTextsAreCalendarDates() {
        let range = WallClockRange(from: .microseconds(951_782_400_250_000), to: .microseconds(0))
        #expect(range.utcTexts.from == "2000-02-29T00:00:00.250000Z")
        #expect(range.utcTexts.to == "1970-01-01T00:00:00.000000Z")
    }
}
