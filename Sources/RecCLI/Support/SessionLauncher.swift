import Foundation
import Synchronization
import RecClient
import RecCore
import Session

/// Starts the detached session process for `rec start` and waits for its "camera started" signal.
///
/// The child is this same executable running `rec start --foreground` with `REC_SESSION_CHILD=1`:
/// it leaves the terminal's session (setsid), and keeps its stderr on a pipe to us until its first
/// frame is in and its socket listens, so any start-up error reaches the user here; then it moves
/// its output to the session log, closing the pipe: that close is the readiness signal (or, with
/// an error on the pipe, its exit), and one `status` request says which.
enum SessionLauncher {
    static let childVariable = "REC_SESSION_CHILD"
    /// A source the child takes from its environment rather than its arguments: a camera URL with
    /// a password must not show in `ps` (a process's environment is its user's alone).
    static let sourceVariable = "REC_SESSION_SOURCE"

    static func launch(arguments: [String], session: String, runtime: RuntimeDirectory,
                       timeout: Double, environment extra: [String: String] = [:]) throws(RecError) -> StatusBody {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executablePath())
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment[childVariable] = "1"
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let errors = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        do { try process.run() } catch {
            throw .runtime("cannot launch the session process", cause: "\(error)")
        }
        // Read the child's stderr as it comes, so a chatty start can never fill the pipe and block it.
        // The child closes the pipe when it is ready (`detachOutput`) or when it exits: either way
        // the reader's latch opens, and nothing is polled.
        let collected = ErrorText()
        let reader = Thread { collected.read(errors.fileHandleForReading) }
        reader.start()
        if collected.closed.wait(until: .after(timeout)) {
            // Ready: the socket listens. Exited: the status fails and its own message says why.
            if case .ok(.status(let status))? = try? ControlClient.send(.status(), session: session, runtime: runtime,
                                                                          timeout: .seconds(2)) {
                return status
            }
            process.waitUntilExit()
            let text = collected.wait()
            let message = text.split(separator: "\n").first { $0.hasPrefix("rec: ") }.map { String($0.dropFirst(5)) }
            throw RecError(process.terminationStatus == 64 ? .usage : .runtime,
                           message ?? "the session exited while starting (status \(process.terminationStatus))")
        }
        // Give up: stop the child, and make sure of it, and clear what it may have left.
        kill(process.processIdentifier, SIGTERM)
        if !collected.closed.wait(until: .after(2)) { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        if case .stale = (try? runtime.inspect(session)) ?? .absent, let folder = try? runtime.folder(named: session) {
            folder.remove()
        }
        throw .runtime("the session did not start within \(Int(timeout)) s; it was stopped and nothing is left running")
    }

    /// In the child, once started: stdout to /dev/null, stderr to the session log, which closes
    /// the pipe the launching `rec start` reads.
    static func detachOutput(log: String) {
        let null = open("/dev/null", O_RDWR)
        let logFD = open(log, O_WRONLY | O_APPEND)
        if null >= 0 { dup2(null, STDIN_FILENO); dup2(null, STDOUT_FILENO); close(null) }
        if logFD >= 0 { dup2(logFD, STDERR_FILENO); close(logFD) }
    }

    static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

/// The launching side's copy of the child's stderr, read on its own thread until the child
/// closes it (on exit, or when it moves its output to the session log): `closed` opens then.
final class ErrorText: Sendable {
    private let text = Mutex(Data())
    let closed = Latch()

    func read(_ handle: FileHandle) {
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            text.withLock { if $0.count < 1 << 20 { $0.append(chunk) } }
        }
        closed.release()
    }

    /// Everything read, once the other end is closed.
    func wait() -> String {
        closed.wait()
        return String(decoding: text.withLock { $0 }, as: UTF8.self)
    }
}
