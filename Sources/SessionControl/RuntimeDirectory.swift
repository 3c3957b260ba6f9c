import Foundation
import Glibc
import RecCore

/// The folder holding every background session of one user: `$XDG_RUNTIME_DIR/rec`, else
/// `/tmp/rec-<uid>`, mode 0700 and owned by that user, with one subfolder per session name.
package struct RuntimeDirectory: Sendable, Equatable {
    /// The folder, e.g. "/run/user/1000/rec".
    package let path: String
    /// The user who must own it.
    package let uid: UInt32

    package init(path: String, uid: UInt32 = getuid()) {
        self.path = path
        self.uid = uid
    }

    /// `$XDG_RUNTIME_DIR/rec` when that variable holds an absolute path, else `/tmp/rec-<uid>`.
    package static func basePath(environment: [String: String], uid: UInt32) -> String {
        if let xdg = environment["XDG_RUNTIME_DIR"], xdg.hasPrefix("/") {
            return (xdg.hasSuffix("/") ? String(xdg.dropLast()) : xdg) + "/rec"
        }
        return "/tmp/rec-\(uid)"
    }

    /// This process's runtime folder, from its environment and uid.
    package static func current() -> RuntimeDirectory {
        let uid = getuid()
        return RuntimeDirectory(path: basePath(environment: ProcessInfo.processInfo.environment, uid: uid), uid: uid)
    }

    /// The folder for session `name`, after checking the name. Does no I/O.
    package func folder(named name: String) throws(RecError) -> SessionFolder {
        SessionFolder(name: try SessionName.validate(name), path: path + "/" + name)
    }

    /// Creates the runtime folder (0700) if needed, or checks the existing one: a real folder,
    /// owned by `uid`; a looser mode is tightened to 0700.
    package func prepare() throws(RecError) {
        try SecureFolder.ensure(path, uid: uid)
    }

    /// Whether session `name` is running, stale, or absent. A stale session is one whose pid is
    /// dead or a zombie (`ProcessState`), or whose socket refuses connections.
    package func inspect(_ name: String) throws(RecError) -> SessionPresence {
        let folder = try folder(named: name)
        var status = stat()
        guard lstat(folder.path, &status) == 0 else { return .absent }
        guard let pid = folder.readPID(), pid > 0 else { return .stale(reason: "it has no valid pid file") }
        guard kill(pid, 0) == 0 || errno == EPERM else { return .stale(reason: "pid \(pid) is not running") }
        if ProcessState.hasEnded(pid) { return .stale(reason: "pid \(pid) has ended (a zombie its parent has not reaped)") }
        switch try UnixSocket.connect(to: folder.socketPath) {
        case .success(let fd):
            close(fd)
        case .failure(let error) where error.code == ENOENT:
            break // alive but not listening yet: starting
        case .failure(let error):
            return .stale(reason: "its socket refuses connections (\(error.description))")
        }
        return .running(pid: pid, info: folder.readInfo())
    }

    /// Throws the "already running" usage error if session `name` is running; a stale or absent
    /// name passes (for `rec start` to check before it launches the session process).
    package func checkAvailable(_ name: String) throws(RecError) {
        if case .running(let pid, let info) = try inspect(name) {
            throw alreadyRunning(name, pid: pid, info: info)
        }
    }

    /// Makes the folder for session `name` and writes its `pid`, `session.json` and `log`,
    /// first removing what a crashed session left behind. Throws a usage error if the name is running.
    package func claim(_ name: String, source: String, pid: Int32 = getpid(),
                      startedAt: Date = Date()) throws(RecError) -> SessionFolder {
        let folder = try folder(named: name)
        try prepare()
        for _ in 0..<3 {
            if mkdir(folder.path, 0o700) == 0 {
                try SecureFolder.ensure(folder.path, uid: uid)
                do {
                    try folder.write(SessionInfo(name: name, pid: pid, source: source, startedAt: startedAt))
                } catch {
                    folder.remove()
                    throw error
                }
                return folder
            }
            guard errno == EEXIST else {
                throw .runtime("cannot create the session folder \(folder.path)", cause: "mkdir: \(errorText(errno))")
            }
            switch try inspect(name) {
            case .running(let pid, let info): throw alreadyRunning(name, pid: pid, info: info)
            case .stale: folder.remove()
            case .absent: continue
            }
        }
        throw .runtime("could not claim the session folder \(folder.path): another rec keeps making it; try again")
    }

    /// Every session folder, sorted by name, with whether it is running (`rec status --all`).
    package func list() -> [SessionListing] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter(SessionName.isValid).sorted().compactMap { name in
            guard let folder = try? folder(named: name), let presence = try? inspect(name) else { return nil }
            return SessionListing(folder: folder, presence: presence, info: folder.readInfo())
        }
    }

    private func alreadyRunning(_ name: String, pid: Int32, info: SessionInfo?) -> RecError {
        let since = info.map { ", since \($0.startedAtText)" } ?? ""
        let stop = name == SessionName.defaultName ? "rec stop" : "rec stop --session \(name)"
        return .usage("session '\(name)' is already running (pid \(pid)\(since)); stop it with '\(stop)' or pick another --session NAME")
    }
}
