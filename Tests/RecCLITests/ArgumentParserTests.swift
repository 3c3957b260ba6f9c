import RecCore
import Testing

@testable import RecCLI
@testable import RecClient

@Suite("Parsing each kind of argument")
struct ArgumentParserTests {
    @Test func optionsFlagsAndPositionals() throws {
        let values = try SampleCommand.parse(["in.mkv", "--source", "cam", "--force", "--scale", "1.5", "out.mkv"]).values
        #expect(try values.value("input", as: String.self) == "in.mkv")
        #expect(try values.value("extra", as: String.self) == "out.mkv")
        #expect(try values.value("source", as: String.self) == "cam")
        #expect(try values.value("scale", as: Double.self) == 1.5)
        #expect(values.flag("force"))
        #expect(!values.flag("json"))
    }

    @Test("--name=value, -s value and --name value agree", arguments: [
        ["x", "--source=cam"], ["x", "-s", "cam"], ["x", "--source", "cam"],
    ])
    func valueForms(_ arguments: [String]) throws {
        let values = try SampleCommand.parse(arguments).values
        #expect(try values.value("source", as: String.self) == "cam")
    }

    @Test func equalsKeepsEverythingAfterTheFirstEquals() throws {
        let values = try SampleCommand.parse(["x", "--source=a=b", "--scale="]).values
        #expect(try values.value("source", as: String.self) == "a=b")
        #expect(try values.value("scale", as: String.self) == "")
    }

    @Test func defaultsApplyOnlyWhenAbsent() throws {
        let absent = try SampleCommand.parse(["x"]).values
        #expect(try absent.value("fps", as: Int.self) == 30)
        #expect(!absent.isSet("fps"))
        #expect(try absent.value("source", as: String.self) == nil)
        #expect(try absent.value("extra", as: String.self) == nil)
        let given = try SampleCommand.parse(["x", "--fps", "60"]).values
        #expect(try given.value("fps", as: Int.self) == 60)
        #expect(given.isSet("fps"))
    }

    @Test func repeatableOptionKeepsOrder() throws {
        let values = try SampleCommand.parse(["x", "--filter", "hflip", "--filter=vflip", "--filter", "negate"]).values
        #expect(try values.values("filter", as: String.self) == ["hflip", "vflip", "negate"])
        #expect(try SampleCommand.parse(["x"]).values.values("filter", as: String.self) == [])
    }

    @Test func choicesReadAsEnums() throws {
        let values = try SampleCommand.parse(["x", "--mode", "exact"]).values
        #expect(try values.require("mode", as: SampleCommand.Mode.self) == .exact)
        #expect(try SampleCommand.parse(["x"]).values.require("mode", as: SampleCommand.Mode.self) == .fast)
    }

    @Test func doubleDashEndsOptions() throws {
        let values = try SampleCommand.parse(["--", "--force", "-s"]).values
        #expect(try values.value("input", as: String.self) == "--force")
        #expect(try values.value("extra", as: String.self) == "-s")
        #expect(!values.flag("force"))
    }

    @Test func dashAndNegativeNumbersAreValues() throws {
        let values = try SampleCommand.parse(["-", "--scale", "-2"]).values
        #expect(try values.value("input", as: String.self) == "-")
        #expect(try values.value("scale", as: Double.self) == -2)
    }

    @Test func flagsMayRepeat() throws {
        #expect(try SampleCommand.parse(["x", "-f", "--force"]).values.flag("force"))
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
        ("fps", ["x", "--fps", "abc"], "invalid value 'abc' for '--fps': expected an integer"),
        ("fps", ["x", "--fps", "2.5"], "invalid value '2.5' for '--fps': expected an integer"),
        ("scale", ["x", "--scale", "nan"], "invalid value 'nan' for '--scale': expected a number"),
        ("input", ["one"], "invalid value 'one' for '<input>': expected an integer"),
    ])
    func conversionErrors(_ name: String, _ arguments: [String], _ message: String) throws {
        let values = try SampleCommand.parse(arguments).values
        #expect(throws: RecError.usage(message)) {
            if name == "scale" { _ = try values.value(name, as: Double.self) } else { _ = try values.value(name, as: Int.self) }
        }
    }
}
