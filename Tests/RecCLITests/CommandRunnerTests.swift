import RecCore
import Testing

@testable import RecCLI
@testable import RecClient
import TestPool

@Suite("Running rec end to end", .blocking)
struct CommandRunnerTests {
    @Test func version() {
        let outcome = rec(["--version"])
        #expect(outcome.output == "rec \(RecCLI.version)\n")
        #expect(outcome.error == "")
        #expect(outcome.status == 0)
    }

    @Test func noArgumentsPrintsHelpToStderrAndFails() {
        let outcome = rec([])
        #expect(outcome.output == "")
        #expect(outcome.error == HelpTests.rootHelp)
        #expect(outcome.status == 64)
    }

    @Test("Usage errors print the message and a usage hint, and exit 64", arguments: [
        (["recrod"], "rec: unknown subcommand 'recrod'; did you mean 'record'?\nUsage: rec <subcommand>\n"),
        (["--verison"], "rec: unknown option '--verison'; did you mean '--version'?\nUsage: rec <subcommand>\n"),
        (["record", "--souce", "cam"], "rec: unknown option '--souce'; did you mean '--source'?\nSee 'rec record --help'.\n"),
        (["record", "--fps", "abc"], "rec: invalid value 'abc' for '--fps': expected a number\nSee 'rec record --help'.\n"),
        (["record", "--frames", "1.5"], "rec: invalid value '1.5' for '--frames': expected an integer\nSee 'rec record --help'.\n"),
        (["record", "-o"], "rec: missing value for '--output <file>'\nSee 'rec record --help'.\n"),
        (["record", "--source", "a", "--source=b"], "rec: '--source' was given more than once; give it once\nSee 'rec record --help'.\n"),
        (["trim"], "rec: missing argument '<input>'\nSee 'rec trim --help'.\n"),
        (["trim", "a.mkv", "b.mkv"], "rec: unexpected argument 'b.mkv'\nSee 'rec trim --help'.\n"),
        (["stop", "now"], "rec: unexpected argument 'now'\nUsage: rec stop [--session <name>] [--json] [--host <box> ...]\n"),
        (["presets", "shwo"], "rec: unknown subcommand 'shwo'; did you mean 'show'?\nUsage: rec presets [--json] [<subcommand>]\n"),
        (["presets", "show"], "rec: missing argument '<name>'\nUsage: rec presets show <name> [--json]\n"),
        (["help", "trim", "extra"], "rec: unexpected argument 'extra'\nUsage: rec <subcommand>\n"),
        (["help", "nope"], "rec: unknown subcommand 'nope'\nUsage: rec <subcommand>\n"),
        (
            ["save", "--last", "5s", "--to", "9s"],
            "rec: --last cannot be combined with --from or --to; give either --last or --from and --to\nSee 'rec save --help'.\n"
        ),
    ])
    func usageErrors(_ arguments: [String], _ expected: String) {
        let outcome = rec(arguments)
        #expect(outcome.error == expected)
        #expect(outcome.output == "")
        #expect(outcome.status == 64)
    }

    @Test func helpWinsOverOtherArguments() {
        #expect(rec(["record", "--fps", "abc", "--help"]).status == 0)
        // After "--", "--help" is the input file's name: not help, and no such file.
        #expect(rec(["trim", "--", "--help"]).status == 64)
    }
}
