import RecCLI
import RecCore

/// What one run of `rec` printed and returned.
struct Outcome {
    var status: Int32
    var output: String
    var error: String
}

/// Runs the real `rec` command line with a captured console.
func rec(_ arguments: [String], environment: [String: String] = [:]) -> Outcome {
    let capture = ConsoleCapture()
    let context = CommandContext(console: capture.console(environment: environment), environment: environment)
    let status = RecCLI.main(arguments, context: context)
    return Outcome(status: status, output: capture.output, error: capture.error)
}

/// A command declaring one of each argument kind; it keeps the parsed values for the test to read.
struct SampleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(name: "sample", abstract: "Exercise every argument kind.")
    static let input = ArgumentSpec.positional("input", help: "The first input.")
    static let extra = ArgumentSpec.positional("extra", optional: true, help: "An optional second input.")
    static let source = ArgumentSpec.option("source", short: "s", value: "name", help: "Where frames come from.")
    static let fps = ArgumentSpec.option("fps", value: "rate", default: "30", help: "Frames per second.")
    static let scale = ArgumentSpec.option("scale", help: "A scale factor.")
    static let filter = ArgumentSpec.option("filter", repeatable: true, help: "A filter; repeatable.")
    static let mode = ArgumentSpec.option("mode", default: "fast", choices: ["fast", "exact"], help: "How to cut.")
    static let force = ArgumentSpec.flag("force", short: "f", help: "Overwrite files.")
    static let json = ArgumentSpec.flag("json", help: "Print JSON.")
    static let arguments = [input, extra, source, fps, scale, filter, mode, force, json]

    enum Mode: String, CaseIterable, ArgumentValue {
        case fast, exact
    }

    var values: ParsedValues

    init(_ values: ParsedValues) { self.values = values }

    func run(_ context: CommandContext) -> Int32 { 0 }
}

/// A command with a required option.
struct RequiredCommand: ParsableCommand {
    static let configuration = CommandConfiguration(name: "required", abstract: "Need an option.")
    static let level = ArgumentSpec.option("level", value: "n", required: true, help: "The level.")
    static let arguments = [level]

    var level: Int

    init(_ values: ParsedValues) throws(RecError) { level = try values.require(Self.level) }

    func run(_ context: CommandContext) -> Int32 { 0 }
}
