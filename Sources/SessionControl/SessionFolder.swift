import Foundation
import Glibc
import RecCore

/// One session's folder in the runtime folder: `control.sock`, `pid`, `session.json` and `log`.
/// Made by `RuntimeDirectory.claim`; the session removes it with `remove()` when it exits.
package struct SessionFolder: Sendable, Equatable {
    package let name: String
    package let path: String

    /// Does no I/O; `name` must already be valid (see `SessionName.validate`).
    package init(name: String, path: String) {
        self.name = name
        self.path = path
    }

    /// The control socket, mode 0600.
    package var socketPath: String { path + "/control.sock" }
    /// The session process's pid, as decimal text.
    package var pidPath: String { path + "/pid" }
    /// `SessionInfo` as JSON.
    package var infoPath: String { path + "/session.json" }
    /// Where the detached session writes its messages.
    package var logPath: String { path + "/log" }

    /// The pid in the `pid` file, if it holds one.
    package func readPID() -> Int32? {
        guard let data = FileManager.default.contents(atPath: pidPath) else { return nil }
        return Int32(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// `session.json`, if present and readable.
    package func readInfo() -> SessionInfo? {
        FileManager.default.contents(atPath: infoPath).flatMap(SessionInfo.decode)
    }

    /// Writes `pid` and `session.json`, and creates an empty `log` (0600).
    func write(_ info: SessionInfo) throws(RecError) {
        do {
            try Data("\(info.pid)\n".utf8).write(to: URL(fileURLWithPath: pidPath), options: .atomic)
            try info.encoded().write(to: URL(fileURLWithPath: infoPath), options: .atomic)
        } catch {
            throw .runtime("cannot write the session files in \(path)", cause: "\(error)")
        }
        let fd = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        if fd < 0 { throw .runtime("cannot create \(logPath)", cause: "open: \(errorText(errno))") }
        close(fd)
    }

    /// Deletes the folder and everything in it; a folder already gone is fine.
    package func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Whether a session name is in use.
package enum SessionPresence: Sendable, Equatable {
    /// No folder for this name.
    case absent
    /// Its process is alive and its socket accepts (or is not made yet: the session is starting).
    case running(pid: Int32, info: SessionInfo?)
    /// Left behind by a session that died; safe to remove.
    case stale(reason: String)
}

/// One entry of `RuntimeDirectory.list()`.
package struct SessionListing: Sendable, Equatable {
    package var folder: SessionFolder
    package var presence: SessionPresence
    package var info: SessionInfo?

    /// Whether its process is alive (not a crashed session's folder).
    package var isRunning: Bool {
        if case .running = presence { return true }
        return false
    }
}
