import Foundation
import Synchronization

/// Where a command's output goes: stdout and stderr writers, whether stdout is a terminal, and
/// whether colour is allowed (a TTY and no `NO_COLOR`). Tests capture it with `ConsoleCapture`.
public struct Console: Sendable {
    /// Writes text to standard output as given (no newline is added).
    public var writeOutput: @Sendable (String) -> Void
    /// Writes text to standard error as given (no newline is added).
    public var writeError: @Sendable (String) -> Void
    /// Whether standard output is a terminal: print for humans rather than for scripts.
    public var isTTY: Bool
    /// Whether colour escapes may be used: stdout is a TTY and `NO_COLOR` is unset or empty.
    public var useColor: Bool

    public init(
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
    public static func standard(environment: [String: String]) -> Console {
        Console(
            isTTY: isatty(STDOUT_FILENO) == 1,
            environment: environment,
            writeOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
            writeError: { FileHandle.standardError.write(Data($0.utf8)) }
        )
    }

    /// Writes one line to standard output.
    public func print(_ line: String) { writeOutput(line + "\n") }

    /// Writes one line to standard error.
    public func printError(_ line: String) { writeError(line + "\n") }
}

/// Collects everything written to a `Console`, for tests.
public final class ConsoleCapture: Sendable {
    private let text = Mutex<(output: String, error: String)>(("", ""))

    public init() {}

    /// A console that writes into this capture; not a TTY unless `isTTY` says so.
    public func console(isTTY: Bool = false, environment: [String: String] = [:]) -> Console {
        Console(
            isTTY: isTTY,
            environment: environment,
            writeOutput: { line in self.text.withLock { $0.output += line } },
            writeError: { line in self.text.withLock { $0.error += line } }
        )
    }

    /// Everything written to standard output so far.
    public var output: String { text.withLock { $0.output } }
    /// Everything written to standard error so far.
    public var error: String { text.withLock { $0.error } }
}
