import Foundation
import Media
@_exported import RecClient
import RecCore

/// The `rec` command line; `main` is the whole program.
package enum RecCLI {
    /// Printed by `rec --version` as `rec <version>`.
    package static let version = "0.2.0"

    /// Runs the command line `arguments` (without the program name) on the real terminal and
    /// returns the exit status: 0 on success, 64 for usage errors, 1 for runtime failures.
    package static func main(_ arguments: [String]) -> Int32 {
        MemoryPolicy.apply()
        let environment = ProcessInfo.processInfo.environment
        return main(arguments, context: CommandContext(console: .standard(environment: environment), environment: environment))
    }

    /// Runs `arguments` with an injected console and environment, for tests.
    package static func main(_ arguments: [String], context: CommandContext) -> Int32 {
        CommandRunner.run(arguments, root: RootCommand.self, context: context)
    }
}
