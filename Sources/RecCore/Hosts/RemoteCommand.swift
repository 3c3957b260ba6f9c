/// What runs on another box: `ssh`'s arguments and the command line its login shell is given.
/// Every word the command line holds is quoted for a POSIX shell (sshd hands the line to the
/// user's shell as one string), so a session or file name can never become shell syntax.
package struct RemoteCommand: Sendable, Equatable {
    /// One word of the remote `rec` command line.
    package enum Word: Sendable, Equatable {
        /// Passed as it is.
        case literal(String)
        /// A file named `name` in the command's own temporary folder on the box.
        case inFolder(String)
    }

    /// The `rec` to run on the box: `REC_REMOTE`, else `rec` from the login's PATH.
    package var program: String
    package var words: [Word]

    package init(program: String, _ words: [Word]) {
        self.program = program
        self.words = words
    }

    /// `rec ARGS` on the box, with `arguments` as given.
    package init(program: String, arguments: [String]) {
        self.init(program: program, arguments.map(Word.literal))
    }

    /// The environment variable naming the program on the other boxes.
    package static let programVariable = "REC_REMOTE"
    /// The environment variable naming an ssh_config file for rec's ssh (`ssh -F`).
    package static let configVariable = "REC_SSH_CONFIG"

    /// `rec` unless `REC_REMOTE` names another path.
    package static func program(environment: [String: String]) -> String {
        environment[programVariable].flatMap { $0.isEmpty ? nil : $0 } ?? "rec"
    }

    /// The command line: `'rec' 'status' '--all' '--json'`.
    package var shellLine: String {
        ([Self.quote(program)] + words.map(Self.shellWord)).joined(separator: " ")
    }

    /// The command line for a command that writes files: run in a new temporary folder on the box,
    /// its standard output kept there as `report.json`, and the folder sent back as a tar stream on
    /// standard output; the folder is removed however the command ends (a hang-up included). The
    /// exit status is the command's, or 127 when the box has no such program.
    package var folderShellLine: String {
        [
            "d=$(mktemp -d \"${TMPDIR:-/tmp}/rec-remote.XXXXXX\") || exit 70",
            "trap 'rm -rf \"$d\"' EXIT",
            "trap 'exit 129' HUP INT TERM PIPE",
            "\(shellLine) >\"$d/\(Self.reportName)\"",
            "s=$?",
            "tar -C \"$d\" -cf - . || exit 71",
            "exit $s",
        ].joined(separator: "; ")
    }

    /// The file in the folder holding the command's standard output.
    package static let reportName = "report.json"

    /// ssh's arguments (after `ssh`) to run `line` on `host`: no password prompt (keys only), no
    /// terminal, a bound on connecting (`connectTimeout` seconds, banner exchange included) and
    /// keepalives that end a connection whose box stops answering after about 30 s.
    package static func sshArguments(_ host: RemoteHost, line: String, connectTimeout: Int, config: String?) -> [String] {
        var arguments = ["-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=\(max(1, connectTimeout))",
                         "-o", "ServerAliveInterval=10", "-o", "ServerAliveCountMax=3"]
        if let config { arguments += ["-F", config] }
        if let port = host.port { arguments += ["-p", String(port)] }
        return arguments + ["--", host.destination, line]
    }

    /// `text` in single quotes for a POSIX shell; a quote inside becomes `'\''`.
    package static func quote(_ text: String) -> String {
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0)) }) {
            return text
        }
        return "'" + text.replacingAll("'", with: "'\\''") + "'"
    }

    private static func shellWord(_ word: Word) -> String {
        switch word {
        case .literal(let text): quote(text)
        case .inFolder(let name): "\"$d\"/" + quote(name)
        }
    }
}
