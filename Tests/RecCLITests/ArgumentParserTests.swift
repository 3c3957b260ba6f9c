import RecCore
import Testing

@testable import RecCLI
@testable import RecClient
import TestPool

private typealias S = SampleCommand

@Suite("Parsing each kind of argument", .blocking)
struct ArgumentParserTests {
    @Test func optionsFlagsAndPositionals() throws {
        let values = try SampleCommand.parse(["in.mkv", "--source", "cam", "--force", "--scale", "1.5", "out.mkv"]).values
        #expect(try values.value(S.input, as: String.self) == "in.mkv")
        #expect(try values.value(S.extra, as: String.self) == "out.mkv")
        #expect(try values.value(S.source, as: String.self) == "cam")
        #expect(try values.value(S.scale, as: Double.self) == 1.5)
        #expect(values.flag(S.force))
        #expect(!values.flag(S.json))
    }

    @Test("--name=value, -s value and --name value agree", arguments: [
        ["x", "--source=cam"], ["x", "-s", "cam"], ["x", "--source", "cam"],
    ])
    func valueForms(_ arguments: [String]) throws {
        let values = try SampleCommand.parse(arguments).values
        #expect(try values.value(S.source, as: String.self) == "cam")
    }

    @Test func equalsKeepsEverythingAfterTheFirstEquals() throws {
        let values = try SampleCommand.parse(["x", "--source=a=b", "--scale="]).values
        #expect(try values.value(S.source, as: String.self) == "a=b")
        #expect(try values.value(S.scale, as: String.self) == "")
    }

    @Test func defaultsApplyOnlyWhenAbsent() throws {
        let absent = try SampleCommand.parse(["x"]).values
        #expect(try absent.value(S.fps, as: Int.self) == 30)
        #expect(!absent.isSet(S.fps))
        #expect(try absent.value(S.source, as: String.self) == nil)
        #expect(try absent.value(S.extra, as: String.self) == nil)
        let given = try SampleCommand.parse(["x", "--fps", "60"]).values
        #expect(try given.value(S.fps, as: Int.self) == 60)
        #expect(given.isSet(S.fps))
    }

    @Test func repeatableOptionKeepsOrder() throws {
        let values = try SampleCommand.parse(["x", "--filter", "hflip", "--filter=vflip", "--filter", "negate"]).values
        #expect(try values.values(S.filter, as: String.self) == ["hflip", "vflip", "negate"])
        #expect(try SampleCommand.parse(["x"]).values.values(S.filter, as: String.self) == [])
    }

    @Test func choicesReadAsEnums() throws {
        let values = try SampleCommand.parse(["x", "--mode", "exact"]).values
        #expect(try values.require(S.mode, as: SampleCommand.Mode.self) == .exact)
        #expect(try SampleCommand.parse(["x"]).values.require(S.mode, as: SampleCommand.Mode.self) == .fast)
    }

    @Test func doubleDashEndsOptions() throws {
        let values = try SampleCommand.parse(["--", "--force", "-s"]).values
        #expect(try values.value(S.input, as: String.self) == "--force")
        #expect(try values.value(S.extra, as: String.self) == "-s")
        #expect(!values.flag(S.force))
    }

    @Test func dashAndNegativeNumbersAreValues() throws {
        let values = try SampleCommand.parse(["-", "--scale", "-2"]).values
        #expect(try values.value(S.input, as: String.self) == "-")
        #expect(try values.value(S.scale, as: Double.self) == -2)
    }

    @Test func flagsMayRepeat() throws {
        #expect(try SampleCommand.parse(["x", "-f", "--force"]).values.flag(S.force))
    }

    @Test func requiredOption() throws {
        #expect(try RequiredCommand.parse(["--level", "3"]).level == 3)
        #expect(throws: RecError.usage("missing option '--level <n>'")) { try RequiredCommand.parse([]) }
    }

    @Test("Usage errors name the problem", arguments: [
        (["x", "--souce", "a"], "unknown option '--souce'; did you mean '--source'?"),
        (["x", "--zzzzzz"], "unknown option '--zzzzzz'"),
        (["x", "-q"], "unknown option '-q'"),
        (["x", "--source"], "missing value for '--source <name>'"),
        (["x", "--source", "--force"], "missing value for '--source <name>'"),
        (["x", "-s", "-f"], "missing value for '--source <name>'"),
        (["x", "--source", "a", "-s", "b"], "'--source' was given more than once; give it once"),
        (["x", "--force=yes"], "'--force' does not take a value"),
        (["x", "y", "z"], "unexpected argument 'z'"),
        ([], "missing argument '<input>'"),
        (["x", "--mode", "exakt"], "invalid value 'exakt' for '--mode': expected one of fast, exact; did you mean 'exact'?"),
    ])
    func usageErrors(_ arguments: [String], _ message: String) {
        #expect(throws: RecError.usage(message)) { try SampleCommand.parse(arguments) }
    }

    @Test("Values that do not convert", arguments: [
        (S.fps, ["x", "--fps", "abc"], "invalid value 'abc' for '--fps': expected an integer"),
        (S.fps, ["x", "--fps", "2.5"], "invalid value '2.5' for '--fps': expected an integer"),
        (S.scale, ["x", "--scale", "nan"], "invalid value 'nan' for '--scale': expected a number"),
        (S.input, ["one"], "invalid value 'one' for '<input>': expected an integer"),
    ])
    func conversionErrors(_ spec: ArgumentSpec, _ arguments: [String], _ message: String) throws {
        let values = try SampleCommand.parse(arguments).values
        #expect(throws: RecError.usage(message)) {
            if spec == S.scale { _ = try values.value(spec, as: Double.self) } else { _ = try values.value(spec, as: Int.self) }
        }
    }

    /// A value is read through its declaration, so there is no second spelling of its name to get
    /// wrong: reading one the command does not list is "not given" (its default), never a trap, as
    /// asking for an undeclared name was.
    @Test func aDeclarationTheCommandDoesNotListReadsAsNotGiven() throws {
        let values = try SampleCommand.parse(["x", "--source", "cam"]).values
        let elsewhere = ArgumentSpec.option("elsewhere", default: "7", help: "Declared by no sample command.")
        #expect(try values.value(elsewhere, as: Int.self) == 7)
        #expect(!values.isSet(elsewhere) && !values.flag(.noFile))
        #expect(values.origin(elsewhere) == "built-in")
    }
}
