import Glibc
import RecCore

/// How `rec save/stop/status/snapshot` reach a running session by name.
public enum ControlClient {
    /// How long a reply is awaited unless the caller says otherwise.
    public static let defaultTimeout: Duration = .seconds(5)

    /// Opens a connection to session `name` in `runtime`. Throws a usage error for a bad name and
    /// "no session 'NAME' is running; start one with 'rec start'" when there is none.
    public static func connect(session name: String, runtime: RuntimeDirectory = .current()) throws(RecError) -> ControlConnection {
        let folder = try runtime.folder(named: name)
        return try ControlConnection(socketPath: folder.socketPath, session: name)
    }

    /// Connects, sends one command, returns its reply and closes.
    public static func send(_ command: ControlCommand, session name: String, runtime: RuntimeDirectory = .current(),
                            timeout: Duration = defaultTimeout) throws(RecError) -> ControlReply {
        let connection = try connect(session: name, runtime: runtime)
        defer { connection.close() }
        return try connection.send(command, timeout: timeout)
    }

    /// Waits until session `name` answers `hello` (for `rec start`, after launching the session
    /// process), trying every 50 ms. Fails early when `isAlive` says the process has exited, and
    /// after `timeout` otherwise; both messages point at the session's log.
    public static func waitForSession(_ name: String, runtime: RuntimeDirectory = .current(),
                                      timeout: Duration = defaultTimeout,
                                      isAlive: () -> Bool = { true }) throws(RecError) -> HelloBody {
        let deadline = ContinuousClock.now + timeout
        let log = (try? runtime.folder(named: name).logPath) ?? runtime.path
        while true {
            if case .ok(.hello(let hello))? = try? send(.hello, session: name, runtime: runtime, timeout: timeout) {
                return hello
            }
            guard isAlive() else {
                throw .runtime("session '\(name)' exited while starting; see \(log)")
            }
            guard ContinuousClock.now < deadline else {
                throw .runtime("session '\(name)' did not come up within \(timeout); see \(log)")
            }
            usleep(50_000)
        }
    }
}
