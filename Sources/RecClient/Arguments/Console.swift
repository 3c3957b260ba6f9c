import Foundation
import Synchronization

/// Where a command's output goes: stdout and stderr writers, whether stdout is a terminal, and
/// whether colour is allowed (a TTY and no `NO_COLOR`). Tests capture it with `ConsoleCapture`.
package struct Console: Sendable {
    /// Writes text to standard output as given (no newline is added).
    package var writeOutput: @Sendable (String) -> Void
    /// Writes text to standard error as given (no newline is added).
    package var writeError: @Sendable (String) -> Void
    /// Whether standard output is a terminal: print for humans rather than for scripts.
    package var isTTY: Bool
    /// Whether colour escapes may be used: stdout is a TTY and `NO_COLOR` is unset or empty.
    package var useColor: Bool

    package init(
        isTTY: Bool,
        environment: [String: String],
        writeOutput: @escaping @Sendable (String) -> Void,
        writeError: @escaping @Sendable (String) -> Void
    ) {
        self.writeOutput = writeOutput
        self.writeError = writeError
        self.isTTY = isTTY
        self.useColor = isTTY && (environment["NO_COLOR"] ?? "").isEmpty
    }

    /// The process's own stdout and stderr; `isTTY` is `isatty(1)`.
    package static func standard(environment: [String: String]) -> Console {
        Console(
            isTTY: isatty(STDOUT_FILENO) == 1,
            environment: environment,
            writeOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
            writeError: { FileHandle.standardError.write(Data($0.utf8)) }
        )
    }

    /// Writes one line to standard output.
    package func print(_ line: String) { writeOutput(line + "\n") }

    /// Writes one line to standard error.
    package func printError(_ line: String) { writeError(line + "\n") }
}

/// Collects everything written to a `Console`, for tests.
package final class ConsoleCapture: Sendable {
    private let text = Mutex<(output: String, error: String)>(("", ""))

    package init() {}

    /// A console that writes into this capture; not a TTY unless `isTTY` says so.
    package func console(isTTY: Bool = false, environment: [String: String] = [:]) -> Console {
        Console(
            isTTY: isTTY,
            environment: environment,
            writeOutput: { line in self.text.withLock { $0.output += line } },
            writeError: { line in self.text.withLock { $0.error += line } }
        )
    }

    /// Everything written to standard output so far.
    package var output: String { text.withLock { $0.output } }
    /// Everything written to standard error so far.
    package var error: String { text.withLock { $0.error } }
}
