import Foundation
import Media
import RecClient
import RecCore

/// `rec trim` on its own, for `rec-trim`: the one process a cut runs in. It links FFmpeg's
/// demuxers, decoders, encoders and muxers, and none of libavfilter, libavdevice, the live page or
/// the session code, so a cut's memory is the cut's (docs/CUTTING.md, "Cost").
package enum TrimCLI {
    /// Runs `rec trim` with `arguments` (starting with `trim`) on the real terminal and returns
    /// the exit status: 0 on success, 64 for usage errors, 1 for runtime failures.
    package static func main(_ arguments: [String]) -> Int32 {
        MemoryPolicy.apply()
        let environment = ProcessInfo.processInfo.environment
        let context = CommandContext(console: .standard(environment: environment), environment: environment)
        return CommandRunner.run(arguments, root: TrimRoot.self, context: context)
    }
}

/// The root `rec` as `rec-trim` sees it: `trim` only. Errors and usage lines name `rec`, exactly
/// as the full command line does.
struct TrimRoot: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "rec", abstract: "Record video frames and cut frame-exact clips.", subcommands: [TrimCommand.self])

    init(_ values: ParsedValues) {}

    func run(_ context: CommandContext) -> Int32 { RecError.Code.usage.exitStatus }
}
