import Glibc
import RecCore

/// How `rec save/stop/status/snapshot` reach a running session by name.
package enum ControlClient {
    /// How long a reply is awaited unless the caller says otherwise.
    package static let defaultTimeout: Duration = .seconds(5)

    /// Opens a connection to session `name` in `runtime`. Throws a usage error for a bad name and
    /// "no session 'NAME' is running; start one with 'rec start'" when there is none.
    package static func connect(session name: String, runtime: RuntimeDirectory = .current()) throws(RecError) -> ControlConnection {
        let folder = try runtime.folder(named: name)
        return try ControlConnection(socketPath: folder.socketPath, session: name)
    }

    /// Connects, sends one command, returns its reply and closes.
    package static func send(_ command: ControlCommand, session name: String, runtime: RuntimeDirectory = .current(),
                            timeout: Duration = defaultTimeout) throws(RecError) -> ControlReply {
        let connection = try connect(session: name, runtime: runtime)
        defer { connection.close() }
        return try connection.send(command, timeout: timeout)
    }
}
