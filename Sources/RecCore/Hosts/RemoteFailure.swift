import Foundation

/// Why a command on another box gave no answer, as a message that says what to try next.
///
/// ssh exits 255 for every failure of its own (a refused key, an unknown host, a box that does not
/// answer) and says which only in its text, so the advice is chosen from ssh's standard error:
/// these are OpenSSH's own messages, the same in every release since 7.x. Anything else is the
/// remote command's exit status: 127 when the box has no `rec`, else rec's own `rec: …` message.
package enum RemoteFailure {
    /// What happened to one run of ssh.
    package struct Run: Sendable, Equatable {
        /// The exit status, or nil when rec ended ssh at its deadline.
        package var status: Int32?
        package var standardError: String
        /// How long the box was given in all, for the message when rec ended ssh.
        package var timeout: Duration
        /// How long ssh was given to connect, for the message when ssh gave up.
        package var connectTimeout: Duration

        package init(status: Int32?, standardError: String, timeout: Duration, connectTimeout: Duration? = nil) {
            self.status = status
            self.standardError = standardError
            self.timeout = timeout
            self.connectTimeout = connectTimeout ?? timeout
        }
    }

    /// The error for `run` on `host`, or nil when it succeeded. `program` is the remote rec.
    package static func error(_ run: Run, host: RemoteHost, program: String) -> RecError? {
        let box = host.display
        let login = "ssh " + (host.port.map { "-p \($0) " } ?? "") + host.destination + " true"
        let text = run.standardError
        guard let status = run.status else {
            return .runtime("\(box) did not answer within \(seconds(run.timeout)); it may be down, stopped or unreachable")
        }
        switch status {
        case 0:
            return nil
        case 255 where text.contains("Permission denied"):
            return .runtime("ssh refused the login to \(box): check that '\(login)' works without a password "
                + "(set a key up with ssh-copy-id \(host.destination), or name it in ~/.ssh/config)", cause: lastLine(text))
        case 255 where text.contains("Could not resolve hostname"):
            return .runtime("unknown host '\(host.host)': check the name, or add it to ~/.ssh/config or /etc/hosts", cause: lastLine(text))
        case 255 where text.contains("Host key verification failed"):
            return .runtime("\(box)'s host key is unknown or has changed: connect once with '\(login)' to check it and accept it",
                            cause: lastLine(text))
        case 255 where text.contains("Connection refused"):
            return .runtime("\(box) refused the connection: is sshd running there\(host.port.map { " on port \($0)" } ?? "")?",
                            cause: lastLine(text))
        case 255 where text.contains("timed out") || text.contains("Connection closed") || text.contains("No route to host")
            || text.contains("Network is unreachable") || text.contains("Timeout"):
            return .runtime("\(box) did not answer within \(seconds(run.connectTimeout)); it may be down, stopped or unreachable",
                            cause: lastLine(text))
        case 255:
            return .runtime("ssh to \(box) failed: \(lastLine(text) ?? "exit status 255"); check that '\(login)' works")
        case 127:
            return .runtime("rec not found on \(box) (as '\(program)'); install it there, or set \(RemoteCommand.programVariable) "
                + "to its path on the box, such as \(RemoteCommand.programVariable)=/usr/local/bin/rec", cause: lastLine(text))
        case 126:
            return .runtime("'\(program)' on \(box) cannot be run; check its permissions there, or set \(RemoteCommand.programVariable)",
                            cause: lastLine(text))
        default:
            let said = text.split(separator: "\n").last { $0.hasPrefix("rec: ") }.map { String($0.dropFirst("rec: ".count)) }
            let message = said ?? lastLine(text) ?? "rec exited with status \(status)"
            return RecError(status == 64 ? .usage : .runtime, "\(box): \(message)")
        }
    }

    /// The last line ssh or the shell wrote that says something, without a trailing `\r`.
    static func lastLine(_ text: String) -> String? {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.last { !$0.isEmpty }
    }

    static func seconds(_ duration: Duration) -> String {
        let (whole, fraction) = duration.components
        let value = Double(whole) + Double(fraction) / 1e18
        return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
