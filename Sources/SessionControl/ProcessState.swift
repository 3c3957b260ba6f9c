import Foundation

/// A process's state as the kernel gives it in `/proc/PID/stat`: what tells a session's process
/// that is still running from one that was killed and not reaped yet.
///
/// A session killed with -9 in a container whose first process does not reap its children stays
/// a zombie: `kill(pid, 0)` still succeeds on it, so once its socket file was gone, `rec start`
/// took it for a session starting up and said "already running". A zombie (`Z`) or a dead
/// process (`X`) runs nothing and holds nothing: the session is stale.
package enum ProcessState {
    /// The state letter of a `/proc/PID/stat` line: the field after the command, which is in
    /// parentheses and may itself hold spaces and parentheses (so the last `)` ends it).
    package static func letter(ofStat line: String) -> Character? {
        guard let close = line.lastIndex(of: ")") else { return nil }
        return line[line.index(after: close)...].first { $0 != " " }
    }

    /// Whether `pid` has ended, though its parent may not have reaped it: a zombie or dead.
    package static func hasEnded(_ pid: Int32) -> Bool {
        guard let line = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let state = letter(ofStat: line) else { return false }
        return state == "Z" || state == "X"
    }
}
